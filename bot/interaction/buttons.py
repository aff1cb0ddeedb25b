"""The one base of Salud's persistent buttons, and the one declaration of each kind's id.

A button's custom id says everything its press needs (``salud:<kind>:<field>:…``), so it
keeps working after a restart. Each kind declares its id once, as a ``CustomId``; from it
derive the ``template`` that discord.py matches presses against (``discord.ui.DynamicItem``),
the id of every new button (``CustomId.build``) and the fields read back from an id posted
earlier (``CustomId.read``: the keeper of the Consciousness buttons reads them to disable
old ones). ``SaludButton`` does the rest once for every kind: ``from_custom_id`` rebuilds
the button, its label read back from the message; a subclass says how its fields become the
button (``parse``) and what a press does (``pressed``); refusals and failures go through the
one error path (``bot.interaction.tree.report_error``, which the services hand a press:
``InteractionServices.report_error``). Every kind is registered once, when
the bot starts (``bot.features.registry``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import discord

from bot.interaction.context import salud_of
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.render.limits import BUTTON_LABEL_LIMIT, CUSTOM_ID_LIMIT
from bot.storage.models import StoredCharacter

__all__ = [
    "LARGEST_NUMBER",
    "CustomId",
    "IdField",
    "IdFields",
    "PageButton",
    "SaludButton",
    "at_most",
    "button_view",
    "choice",
    "number",
    "owned_character",
]


@dataclass(frozen=True)
class IdField:
    """One field of a custom id: its name, the regex its text matches (no groups), whether
    it may be left out (only the last fields: ids from before it was added), and whether it
    holds a whole number (``CustomId.read`` gives it as an ``int``) or a word."""

    name: str
    pattern: str
    optional: bool = False
    whole_number: bool = False


class IdFields(dict[str, int | str | None]):
    """The fields read back from a custom id (``CustomId.read``), typed as declared: a number
    field an ``int``, a word a ``str``, an optional field left out None."""

    def number(self, name: str) -> int:
        """The number field ``name`` (refused when the id left it out: declare it optional
        and read it with ``optional_number``)."""
        value = self[name]
        if not isinstance(value, int):
            raise KeyError(f"{name} is not a number this id holds")
        return value

    def optional_number(self, name: str) -> int | None:
        """The number field ``name``, None when the id left it out (an id from before it)."""
        value = self[name]
        if value is not None and not isinstance(value, int):
            raise KeyError(f"{name} is not a number field")
        return value


#: The largest number an id's field may hold: SQLite's largest integer (signed 64 bits), which
#: every Discord snowflake (63 bits) and every row id fits in. A larger one would reach SQLite
#: as an ``OverflowError`` (issue 24: forged presses of 20 digits).
LARGEST_NUMBER = 2**63 - 1


def at_most(limit: int) -> str:
    """A regex (no groups to capture) of the whole numbers from 0 to ``limit``, in plain digits:
    for 255 ``(?:[0-9]{1,2}|[0-1][0-9]{2}|2[0-4][0-9]{1}|25[0-4]|255)``."""
    digits = str(limit)
    width = len(digits)
    options = [f"[0-9]{{1,{width - 1}}}"] if width > 1 else []
    for position, digit in enumerate(digits):
        if digit != "0":
            below = "0" if digit == "1" else f"[0-{int(digit) - 1}]"
            rest = width - position - 1
            options.append(digits[:position] + below + (f"[0-9]{{{rest}}}" if rest else ""))
    options.append(digits)
    return "(?:" + "|".join(options) + ")"


def number(name: str, digits: int = 19, *, optional: bool = False) -> IdField:
    """A whole number of 1 to ``digits`` digits, at most ``LARGEST_NUMBER`` (19: any Discord
    snowflake or row id)."""
    if 10**digits - 1 <= LARGEST_NUMBER:
        return IdField(name, f"[0-9]{{1,{digits}}}", optional, whole_number=True)
    return IdField(name, at_most(LARGEST_NUMBER), optional, whole_number=True)


def choice(name: str, *words: str) -> IdField:
    """One of ``words`` (``yes|no``)."""
    return IdField(name, "|".join(re.escape(word) for word in words))


@dataclass(frozen=True)
class CustomId:
    """A kind of button's custom id, declared once: ``salud:<kind>`` then its fields,
    ``:``-separated (``CustomId("del", number("character_id"), choice("answer", "yes",
    "no"))`` is ``salud:del:<character_id>:<yes|no>``)."""

    kind: str
    fields: tuple[IdField, ...]

    def __init__(self, kind: str, *fields: IdField) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "fields", fields)
        seen_optional = False
        for field in fields:
            if seen_optional and not field.optional:
                raise ValueError(f"salud:{kind}: {field.name} follows an optional field")
            seen_optional = seen_optional or field.optional

    @property
    def template(self) -> str:
        """The regex a pressed id must match whole, a named group per field."""
        parts = [re.escape(f"salud:{self.kind}")]
        for field in self.fields:
            piece = f":(?P<{field.name}>{field.pattern})"
            parts.append(f"(?:{piece})?" if field.optional else piece)
        return "".join(parts)

    def build(self, **values: object) -> str:
        """The id of a new button (an optional field given None is left out); refuses a value
        its field would not match, and an id longer than Discord's limit."""
        parts = [f"salud:{self.kind}"]
        for field in self.fields:
            value = values.pop(field.name, None)
            if value is None:
                if not field.optional:
                    raise ValueError(f"salud:{self.kind}: {field.name} is missing")
                break
            shown = str(value)
            if not re.fullmatch(field.pattern, shown):
                raise ValueError(f"salud:{self.kind}: {field.name}={shown!r}")
            parts.append(shown)
        if values:
            raise ValueError(f"salud:{self.kind}: unknown fields {sorted(values)}")
        custom_id = ":".join(parts)
        if len(custom_id) > CUSTOM_ID_LIMIT:
            raise ValueError(f"{custom_id!r} is longer than {CUSTOM_ID_LIMIT} characters")
        return custom_id

    def read(self, custom_id: str) -> IdFields | None:
        """The fields of an id of this kind, typed as declared (a number an ``int``; None for
        an optional one left out), or None when the id is of another kind."""
        found = re.fullmatch(self.template, custom_id)
        if found is None:
            return None
        fields = IdFields()
        for field in self.fields:
            text = found[field.name]
            fields[field.name] = int(text) if field.whole_number and text is not None else text
        return fields


def button_view() -> discord.ui.View:
    """An empty view to put Salud's buttons in, that discord.py keeps nowhere.

    Every kind of button answers its presses as a ``DynamicItem`` registered once
    (``bot.features.registry``), so no view needs to wait for presses. A view sent while
    still listening is put in discord.py's view store, and an ephemeral message's view gets
    a 15-minute timeout task: one task per confirmation asked (issue 19.4). This one is
    stopped before it is sent, which discord.py reads as "keep nothing"."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


class SaludButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?!)",  # the base matches no id: only its subclasses are registered
):
    """A persistent button: built from its custom id, pressed through ``pressed``.

    A kind names its id in its class statement (``class DeleteButton(SaludButton,
    custom_id=DELETE_ID)``): discord.py's ``template`` is derived from it, and the kind's
    ``id_format`` builds the id of each new button.
    """

    #: The kind's custom id, as declared in its class statement.
    id_format: ClassVar[CustomId]

    def __init_subclass__(cls, *, custom_id: CustomId | None = None, **kwargs: Any) -> None:
        if custom_id is not None:
            cls.id_format = custom_id
            kwargs["template"] = custom_id.template
        else:  # a base of several kinds (``RollButton``): it matches no id
            kwargs.setdefault("template", r"(?!)")
        super().__init_subclass__(**kwargs)

    def __init__(
        self,
        custom_id: str,
        label: str,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:BUTTON_LABEL_LIMIT],
                style=style,
                custom_id=custom_id,
                disabled=disabled,
            ),
            row=row,
        )

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> Self:
        """The button a matched custom id describes, with the label it was shown with."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls.parse(match, label or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.pressed(await Here.of(interaction))
        except Exception as error:
            await salud_of(interaction).services.report_error(interaction, error)

    async def pressed(self, here: Here) -> None:
        """What a press does; raise to refuse (nothing changed)."""
        raise NotImplementedError


class PageButton(SaludButton, template=r"(?!)"):
    """◀ or ▶ of a paged reply (an id whose one field is ``page``: ``salud:page:list:<page>``);
    anyone may press it (anyone may look) and the page is read afresh."""

    def __init__(self, page: int, label: str = "", *, disabled: bool = False) -> None:
        custom_id = self.id_format.build(page=max(page, 0))
        super().__init__(custom_id, label or str(page), disabled=disabled)
        self.page = page

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> Self:
        return cls(int(match["page"]), label)

    @classmethod
    def pager(cls, page: int, pages: int, previous: str, following: str) -> discord.ui.View | None:
        """◀ and ▶ under page ``page`` of ``pages``, disabled at the ends; None for one page."""
        if pages == 1:
            return None
        view = button_view()
        view.add_item(cls(page - 1, previous, disabled=page == 1))
        view.add_item(cls(page + 1, following, disabled=page == pages))
        return view


async def owned_character(here: Here, character_id: int, action_key: str) -> StoredCharacter:
    """The character a button is about, if the one who pressed is its owner or a GM; refuses
    when it is gone (deleted since the button was posted) or someone else's."""
    here = await here.of_character(character_id)
    async with here.read() as reader:
        current = await reader.get_character(here.table_id, character_id)
    if current is None:
        raise UserFacingError("error.character_gone")
    here.require_owner_or_gm(current, action_key)
    return current
