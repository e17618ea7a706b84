"""What the store raises.  Every message is plain text a caller or a sysop can read as is.

:class:`StoreUnavailable` means "the database cannot be used right now" (unwritable, full,
corrupt, locked too long, server down): the UI says scores are unavailable and play goes on.
The other errors are refusals of one request, with the reason in ``str(exc)``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator


class StoreError(Exception):
    """Base of everything the store raises on purpose."""


class StoreUnavailable(StoreError):
    """The database cannot be read or written now; nothing was half-written.  ``reason`` is
    a short key (``full``, ``readonly``, ``busy``, ``unreachable``…) for code that reacts to
    the cause; ``str(exc)`` is the sentence for people."""

    def __init__(self, message: str, reason: str = "other") -> None:
        super().__init__(message)
        self.reason = reason


class RecordRejected(StoreError, ValueError):
    """A finished game whose record does not replay to the score, status or game claimed."""


class UnknownPlayer(StoreError, LookupError):
    """No player by that name (``suggestions`` holds near names, best first)."""

    def __init__(self, message: str, suggestions: list[str] | None = None) -> None:
        super().__init__(message)
        self.suggestions = suggestions or []


class MessageRefused(StoreError, ValueError):
    """A message over a limit (length, messages per hour) or with nothing in it."""


class SaveRefused(StoreError, ValueError):
    """A named save with a bad name, or one save too many."""


__all__ = ["MessageRefused", "RecordRejected", "SaveRefused", "StoreError", "StoreUnavailable",
           "UnknownPlayer"]


@contextlib.contextmanager
def logged_in_task(log: logging.Logger, what: str) -> Iterator[None]:
    """One round of a task of its own that writes to the store (best effort: the next round
    tries again): a refusal is logged at debug level with its reason, anything else as a
    warning with its traceback, since nobody else would see it."""
    try:
        yield
    except StoreError as exc:
        log.debug("%s: %s", what, exc)
    except Exception:
        log.warning(what, exc_info=True)
