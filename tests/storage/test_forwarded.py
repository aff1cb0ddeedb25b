"""``forwarded``: a holder's method that is its part's, found on the part each time."""

from __future__ import annotations

from bot.storage.forwarded import Forwarded, forwarded
from bot.storage.sqlite.reader import Reader
from bot.storage.sqlite.transaction import Transaction


class Part:
    def __init__(self, said: str) -> None:
        self.said = said

    def say(self, suffix: str) -> str:
        return self.said + suffix


class Holder:
    def __init__(self, part: Part) -> None:
        self._part = part

    say = forwarded("_part", Part.say)


class Outer:
    def __init__(self, holder: Holder) -> None:
        self._holder = holder

    say = forwarded("_holder", Holder.say)


def test_a_forwarded_method_is_the_parts_bound_method_read_each_time() -> None:
    holder = Holder(Part("a"))
    assert holder.say("!") == "a!"
    assert holder.say.__self__ is holder._part  # type: ignore[attr-defined]
    holder._part = Part("b")  # a part replaced is the one asked
    assert holder.say("?") == "b?"
    assert isinstance(Holder.say, Forwarded) and Holder.say.name == "say"


def test_a_method_forwarded_twice_reaches_the_innermost_part() -> None:
    assert Outer(Holder(Part("c"))).say(".") == "c."


def test_the_transaction_forwards_only_to_methods_its_reader_has() -> None:
    forwards = {n: v for n, v in vars(Transaction).items() if isinstance(v, Forwarded)}
    assert len(forwards) >= 20
    for name, value in forwards.items():
        assert value.name == name and hasattr(Reader, name), name
