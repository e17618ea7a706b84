"""Node numbers (lowest free) and who's online, on one server and across two sharing a
database."""

from __future__ import annotations

from pathlib import Path

from serverhelp import call, new_member, running, signup, to_menu


async def open_whos_online(caller) -> None:
    caller.send("w")
    await caller.wait_for("Who's Online")
    await caller.settle()


def node_of(text: str, handle: str) -> int:
    for line in text.splitlines():
        words = line.split()
        if handle in words:
            return int(words[words.index(handle) - 1])
    raise AssertionError(f"{handle} not listed:\n{text}")


async def test_lowest_free_node_and_whos_online(door_home: Path) -> None:
    async with running(door_home, ssh=False) as ports:
        ann = await new_member(ports.telnet, "Ann", "ann-pass")
        ben = await new_member(ports.telnet, "Ben", "ben-pass")
        await open_whos_online(ben)
        assert node_of(ben.term.text, "Ann") == 1
        assert node_of(ben.term.text, "Ben") == 2
        rows = {line.split()[1]: line for line in ben.term.text.splitlines()
                if len(line.split()) > 1 and line.split()[1] in ("Ann", "Ben")}
        assert "main menu" in rows["Ann"]
        assert "Who's Online" in rows["Ben"]  # their own row says what they are doing now
        await ann.log_off()

        cat = await call(ports.telnet)  # node 1 is free again: the lowest goes first
        await signup(cat, "Cat", "cat-pass")
        await to_menu(cat)
        ben.send("r")
        await ben.wait_until(lambda: "Cat" in ben.term.text and "Ann" not in ben.term.text,
                             "Cat in the list, and Ann gone from it")
        assert node_of(ben.term.text, "Cat") == 1
        ben.close()
        cat.close()


async def test_two_servers_sharing_one_database(door_home: Path) -> None:
    async with running(door_home, ssh=False) as one, running(door_home, ssh=False) as two:
        ann = await new_member(one.telnet, "Ann", "ann-pass")
        ben = await new_member(two.telnet, "Ben", "ben-pass")
        await open_whos_online(ben)
        text = ben.term.text
        assert "Srv" in text  # several servers: a server column tells their nodes apart
        assert node_of(text, "Ann") == 1 and node_of(text, "Ben") == 1
        ann.close()
        ben.close()
