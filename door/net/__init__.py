"""The ways a caller arrives.  Each adapter gives the session one :class:`Terminal`."""

from .terminal import Terminal

__all__ = ["Terminal"]
