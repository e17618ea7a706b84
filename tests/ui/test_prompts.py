"""Questions and messages on the message line: never cut, a long one wraps onto a second
line, and the screen's row under it comes back after the answer."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyteterm import QueueTerminal
from waiting import WAIT, until

from door.config import Settings
from door.session import Services, Session
from door.ui.shared.widgets import confirm, message


def words(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


async def ask(settings: Settings, question: str, answer: bytes, default: bool = True,
              above: str = "the row above the message line") -> tuple[bool, list[str], list[str]]:
    """(the answer, the screen while asked, the screen after)."""
    terminal = QueueTerminal()
    session = Session(terminal, Services(settings))
    session.screen.put(21, 1, above)
    task = asyncio.create_task(confirm(session, question, default))
    await until(lambda: "(Y/n)" in terminal.term.text or "(y/N)" in terminal.term.text,
                "the question asked")
    asked = terminal.term.lines
    terminal.inbox.put_nowait(answer)
    result = await asyncio.wait_for(task, WAIT)
    await session.show()
    return result, asked, terminal.term.lines


@pytest.mark.slow
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.text(st.sampled_from("abcdefgh ijk,.?"), min_size=1, max_size=220)
       .filter(lambda q: q.strip() and "  " not in q.strip()))  # up to three lines
def test_a_question_of_any_length_shows_whole(settings: Settings, question: str) -> None:
    question = question.strip()
    result, asked, after = asyncio.run(ask(settings, question, b"y"))
    assert result is True
    assert words(asked[19:23]).endswith(f"{question} (Y/n)")
    assert after[21].strip() == "the row above the message line"  # put back
    assert after[22].strip() == ""


async def test_enter_answers_the_default(settings: Settings) -> None:
    assert (await ask(settings, "Go?", b"\r"))[0] is True
    assert (await ask(settings, "Throw it away?", b"\r", default=False))[0] is False
    assert (await ask(settings, "Throw it away?", b"y", default=False))[0] is True
    assert (await ask(settings, "Go?", b"x"))[0] is False


@pytest.mark.parametrize("length", [78, 79, 140, 400])
async def test_message_uses_two_lines_at_most(settings: Settings, length: int) -> None:
    terminal = QueueTerminal()
    session = Session(terminal, Services(settings))
    text = ("word " * 100)[:length].strip()
    used = message(session, text)
    await session.show()
    assert used == (1 if length <= 78 else 2)
    assert all(len(line.rstrip()) <= 79 for line in terminal.term.lines)
    if length <= 140:
        assert words(terminal.term.lines[21:23]) == text
