"""Writing messages through a real door, as callers type and paste: the editor wraps and
counts, Esc and Ctrl-C ask before anything is thrown away, replies quote, names keep their
owner's spelling, and text beyond ASCII arrives as it was typed."""

from __future__ import annotations

from pathlib import Path

from pyteterm import TelnetCaller
from serverhelp import call, configure, login, running, to_menu

from door.config import load_settings
from door.store import Store

PASSWORD = "secret1"


async def make_players(home: Path, *handles: str) -> None:
    store = Store(load_settings(home).database_url)
    try:
        await store.start()
        for handle in handles:
            await store.accounts.signup(handle, PASSWORD)
    finally:
        await store.close()


async def inbox(home: Path, handle: str) -> list[tuple[str, str, str]]:
    """(sender, subject, body) of ``handle``'s messages, newest first."""
    store = Store(load_settings(home).database_url)
    try:
        (player,) = await store.players.find(handle)
        return [(m.sender, m.subject, m.body) for m in await store.messages.inbox(player.id)]
    finally:
        await store.close()


async def at_messages(port: int, handle: str, charset: str = "cp437") -> TelnetCaller:
    caller = await call(port, charset=charset)
    await login(caller, handle, PASSWORD)
    await to_menu(caller)
    caller.send("e")
    await caller.wait_for("messages for")
    return caller


async def start_writing(caller: TelnetCaller, to: str, subject: str) -> None:
    caller.send("w")
    await caller.wait_for("To:")
    caller.send(f"{to}\r")
    await caller.wait_for("Subject:")
    caller.send(f"{subject}\r")
    await caller.wait_for("Type your message")


async def test_esc_and_ctrl_c_ask_before_a_message_is_thrown_away(door_home: Path) -> None:
    await make_players(door_home, "Alice", "Bob")
    async with running(door_home, ssh=False) as ports:
        alice = await at_messages(ports.telnet, "alice")
        await start_writing(alice, "Bob", "Tonight")
        alice.send("line 1\rline 2")
        await alice.wait_for("line 2")
        alice.send("\x1b")
        await alice.wait_for("Abandon this message? (y/N)")
        alice.send("\r")  # Enter is no here
        await alice.wait_for("Not abandoned: go on writing.")
        alice.send(" and more\x03")  # Ctrl-C asks too
        await alice.wait_for("Abandon this message? (y/N)")
        alice.send("n")
        await alice.wait_for("Not abandoned")
        alice.send("! x\x1by")  # an Esc inside pasted text is no Esc: nothing is asked
        await alice.settle()
        assert "Abandon this message?" not in alice.term.text
        alice.send("\x1a")  # Ctrl-Z sends
        await alice.wait_for("Message sent to Bob.")
        assert await inbox(door_home, "bob") == [
            ("Alice", "Tonight", "line 1\nline 2 and more! xy")]

        await start_writing(alice, "bob", "Scrap")
        alice.send("nothing to keep")
        await alice.wait_for("nothing to keep")
        alice.send("\x1b")
        await alice.wait_for("Abandon this message? (y/N)")
        alice.send("y")
        await alice.wait_for("Message abandoned.")
        alice.send("w")
        await alice.wait_for("To:")
        alice.send("\x1b")  # nothing typed yet: Esc simply goes back
        await alice.wait_for("messages for Alice")
        assert len(await inbox(door_home, "bob")) == 1
        alice.close()


async def test_long_lines_wrap_as_typed_and_pasted_and_are_kept_whole(door_home: Path) -> None:
    configure(door_home, message_length=5000)
    await make_players(door_home, "Alice", "Bob")
    words = " ".join(f"word{i:03d}" for i in range(30))  # 239 characters, one line
    pasted = "\r\n".join(f"{i:02d} " + "lorem ipsum " * 11 for i in range(20))  # 20 x 135
    async with running(door_home, ssh=False) as ports:
        alice = await at_messages(ports.telnet, "alice")
        await start_writing(alice, "Bob", "Long")
        for ch in words:  # typed a key at a time
            alice.send(ch)
        await alice.wait_for("word029")
        rows = [line for line in alice.term.lines if "word" in line]
        assert len(rows) == 4 and all(len(line.rstrip()) <= 78 for line in rows)
        assert rows[0].split()[0] == "word000" and rows[-1].rstrip().endswith("word029")
        assert "239 of 5,000" in alice.term.text
        alice.send("\r" + pasted + "\r")  # pasted: one burst
        await alice.wait_for("2,960 of 5,000")
        assert "19 lorem ipsum" in alice.term.text
        alice.send("/s\r")
        await alice.wait_for("Message sent to Bob.")
        ((_, _, body),) = await inbox(door_home, "bob")
        assert body.split("\n") == [words, *[f"{i:02d} " + "lorem ipsum " * 10 + "lorem ipsum"
                                             for i in range(20)]]
        alice.close()

        bob = await at_messages(ports.telnet, "bob")
        bob.send("\r")
        await bob.wait_for("Subject: Long")
        assert "word000" in bob.term.text and all(len(line.rstrip()) <= 80
                                                  for line in bob.term.lines)
        bob.close()


async def test_a_full_message_says_so_once_and_keeps_what_fits(door_home: Path) -> None:
    configure(door_home, message_length=100)
    await make_players(door_home, "Alice", "Bob")
    async with running(door_home, ssh=False) as ports:
        alice = await at_messages(ports.telnet, "alice")
        await start_writing(alice, "Bob", "Short")
        alice.send("x" * 150)
        await alice.wait_for("The message is full (100 characters): Ctrl-Z or /s sends it.")
        assert "100 of 100" in alice.term.text
        assert alice.term.raw.count(b"\x07") == 1  # one bell, not fifty
        alice.send("\x1a")
        await alice.wait_for("Message sent to Bob.")
        assert [body for _, _, body in await inbox(door_home, "bob")] == ["x" * 100]
        alice.close()


async def test_replies_quote_names_are_spelt_by_their_owner_and_no_note_to_oneself(
        door_home: Path) -> None:
    await make_players(door_home, "Alice", "BoB")
    async with running(door_home, ssh=False) as ports:
        alice = await at_messages(ports.telnet, "alice")
        alice.send("w")
        await alice.wait_for("To:")
        alice.send("ALICE\r")
        await alice.wait_for("That is you: write to another player.")
        alice.send("bob\r")
        await alice.wait_for("Subject:")
        alice.send("Hi\rFirst line.\rSecond line.\r/s\r")
        await alice.wait_for("Message sent to BoB.")
        alice.close()

        bob = await at_messages(ports.telnet, "bob")
        bob.send("\r")
        await bob.wait_for("Subject: Hi")
        bob.send("r")
        await bob.wait_for("Subject: Re: Hi")
        await bob.wait_for("> Second line.")
        assert "Alice wrote:" in bob.term.text and "> First line." in bob.term.text
        bob.send("Agreed.\x1a")
        await bob.wait_for("Message sent to Alice.")
        bob.close()
    assert await inbox(door_home, "alice") == [
        ("BoB", "Re: Hi", "Alice wrote:\n> First line.\n> Second line.\n\nAgreed.")]


async def test_text_beyond_ascii_is_kept_and_shown_per_charset(door_home: Path) -> None:
    await make_players(door_home, "Alice", "Bob")
    text = "Café crème, 中文 and 😀 too"
    async with running(door_home, ssh=False) as ports:
        alice = await at_messages(ports.telnet, "alice", charset="utf8")
        await start_writing(alice, "Bob", "Ünïcode 中")
        alice.send(text)
        await alice.wait_for("中文 and 😀 too")  # echoed as typed
        alice.send("\x1a")
        await alice.wait_for("Message sent to Bob.")
        alice.close()
        assert await inbox(door_home, "bob") == [("Alice", "Ünïcode 中", text)]

        wide = await at_messages(ports.telnet, "bob", charset="utf8")
        await wide.wait_for("Ünïcode 中")
        wide.send("\r")
        await wide.wait_for(text)
        wide.close()

        narrow = await at_messages(ports.telnet, "bob", charset="cp437")
        narrow.send("a")  # all messages: the one above is read now
        await narrow.wait_for("Ünïcode ?")
        narrow.send("\r")
        await narrow.wait_for("Café crème, ?? and ? too")
        narrow.close()
