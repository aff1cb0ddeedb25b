"""JSON objects read back as frozen dataclasses by their fields' types, and written from
them: what the history's details are made of (``bot/storage/details.py``). ``read_fields``
takes a field by its name (or ``field(metadata={"key": …})``) and its type — ``int``,
``str``, ``bool``, a ``Literal``, ``X | None``, ``tuple[X, ...]`` and a nested frozen
dataclass — a field missing, or stored with another type, taking its default;
``Unreadable`` when a field without one cannot be read."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

__all__ = ["Unreadable", "check_fields", "dump_fields", "read_fields", "read_value"]

T = TypeVar("T")


class Unreadable(ValueError):
    """Stored details that do not read as their class (a required field missing or of
    another type)."""


def _key(item: dataclasses.Field[Any]) -> str:
    return str(item.metadata.get("key", item.name))


def _dump(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dump_fields(value)
    if isinstance(value, tuple):
        return [_dump(item) for item in value]
    return value


def dump_fields(value: Any) -> dict[str, Any]:
    return {
        _key(item): _dump(getattr(value, item.name))
        for item in dataclasses.fields(value)
        if getattr(value, item.name) is not None
    }


def read_value(kind: Any, value: Any) -> Any:
    """``value`` (parsed JSON) as ``kind``; ``Unreadable`` when it is not one."""
    origin = get_origin(kind)
    if origin is Union or origin is types.UnionType:
        options = get_args(kind)
        if value is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return read_value(option, value)
            except Unreadable:
                continue
        raise Unreadable(f"{value!r} is none of {kind}")
    if origin is Literal:
        if value in get_args(kind) and not isinstance(value, bool):
            return value
        raise Unreadable(f"{value!r} is not one of {get_args(kind)}")
    if origin is tuple:
        item_kind = get_args(kind)[0]
        if not isinstance(value, list | tuple):
            raise Unreadable(f"{value!r} is not a list")
        return tuple(read_value(item_kind, item) for item in value)
    if kind is bool:
        if isinstance(value, bool):
            return value
        raise Unreadable(f"{value!r} is not true or false")
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise Unreadable(f"{value!r} is not a whole number")
    if kind is str:
        if isinstance(value, str):
            return value
        raise Unreadable(f"{value!r} is not text")
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(value, Mapping):
            raise Unreadable(f"{value!r} is not an object")
        return read_fields(kind, value)
    raise TypeError(f"details cannot hold a field of type {kind!r}")


def check_fields(cls: type[Any]) -> None:
    """Raise ``TypeError`` unless every field of ``cls`` has a type ``read`` knows (a test
    asks it of every registered class, so that a new one cannot fail at its first read)."""
    hints = get_type_hints(cls)
    for item in dataclasses.fields(cls):
        _check_kind(hints[item.name])


def _check_kind(kind: Any) -> None:
    origin = get_origin(kind)
    if origin is Union or origin is types.UnionType:
        for option in get_args(kind):
            if option is not type(None):
                _check_kind(option)
    elif origin is tuple:
        if len(get_args(kind)) != 2 or get_args(kind)[1] is not Ellipsis:
            raise TypeError(f"details hold tuples as tuple[X, ...], not {kind!r}")
        _check_kind(get_args(kind)[0])
    elif isinstance(kind, type) and dataclasses.is_dataclass(kind):
        check_fields(kind)
    elif origin is not Literal and kind not in (bool, int, str):
        raise TypeError(f"details cannot hold a field of type {kind!r}")


#: ``_fields_of``'s answers, by class.
_FIELDS: dict[type[Any], tuple[tuple[str, str, Any, bool], ...]] = {}


def _fields_of(cls: type[Any]) -> tuple[tuple[str, str, Any, bool], ...]:
    """Each field of ``cls``: its name, its key, its type, whether it has a default. Read
        once per class: ``get_type_hints`` evaluates the annotations' text at every call (a
        ``compile`` each: 79 µs for a /hurt's details), and a /history reads one entry's details
    after another."""
    found = _FIELDS.get(cls)
    if found is not None:
        return found
    hints = get_type_hints(cls)
    found = _FIELDS[cls] = tuple(
        (
            item.name,
            _key(item),
            hints[item.name],
            item.default is not dataclasses.MISSING
            or item.default_factory is not dataclasses.MISSING,
        )
        for item in dataclasses.fields(cls)
    )
    return found


def read_fields(cls: type[T], stored: Mapping[str, Any]) -> T:
    values: dict[str, Any] = {}
    for name, key, kind, has_default in _fields_of(cls):
        if key in stored:
            try:
                values[name] = read_value(kind, stored[key])
                continue
            except Unreadable:
                if not has_default:
                    raise
        elif not has_default:
            raise Unreadable(f"{cls.__name__} needs {key!r}")
    return cls(**values)
