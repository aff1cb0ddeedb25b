"""A method that an object answers with one of its parts' methods, unchanged.

A ``Transaction`` reads what its ``Reader`` reads, and a ``Reader`` reads the roll-button
messages and the trackers through its ``SideReads``. Written out, each such method was a
signature copied from the part and one line calling it: 30 of them, each to be kept in step
with the part's. ``forwarded("_reads", Reader.history)`` is the part's own method, found on
the part when the holder's attribute is read: its signature is the part's (mypy checks every
caller and the interface against it), and a call awaits one coroutine, not two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

__all__ = ["Forwarded", "forwarded"]

P = ParamSpec("P")
R = TypeVar("R")


class Forwarded(Generic[P, R]):
    """Read on an instance, the bound method of the same name of its part ``part``."""

    __slots__ = ("_name", "_part")

    def __init__(self, part: str, name: str) -> None:
        self._part = part
        self._name = name

    @property
    def name(self) -> str:
        """The method's name, on the holder and on its part."""
        return self._name

    @overload
    def __get__(self, holder: None, owner: type[Any]) -> Forwarded[P, R]: ...

    @overload
    def __get__(self, holder: object, owner: type[Any] | None = None) -> Callable[P, R]: ...

    def __get__(self, holder: object, owner: type[Any] | None = None) -> Any:
        if holder is None:
            return self
        return getattr(getattr(holder, self._part), self._name)


@overload
def forwarded(part: str, method: Forwarded[P, R]) -> Forwarded[P, R]: ...


@overload
def forwarded(part: str, method: Callable[Concatenate[Any, P], R]) -> Forwarded[P, R]: ...


def forwarded(part: str, method: Any) -> Any:
    """``method`` (a method of the part's class, or one it forwards in turn) as the holder's
    own: the holder's attribute ``part`` answers it."""
    return Forwarded(part, method.name if isinstance(method, Forwarded) else method.__name__)
