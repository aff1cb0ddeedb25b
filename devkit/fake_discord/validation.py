"""Checks of what the bot sends, against Discord's public OpenAPI schemas and documented limits.

Discord rejects an invalid payload with 400 (code 50035); the fake records every problem so a
test can assert there were none, and (in strict mode) rejects the request as Discord would.
"""

from __future__ import annotations

import copy
import json
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

SPEC_PATH = Path("/work/shared/discord-api-spec/discord_openapi_subset.json")

CONTENT_LIMIT = 2000
EMBED_LIMITS = {"title": 256, "description": 4096}
EMBED_FIELDS = 25
FIELD_NAME, FIELD_VALUE = 256, 1024
FOOTER_TEXT, AUTHOR_NAME = 2048, 256
EMBEDS_TOTAL = 6000
MAX_EMBEDS = 10
MAX_OPTIONS, MAX_CHOICES = 25, 25
COMMAND_CHARS = 4000
SUBCOMMAND_TYPES = (1, 2)
CHAT_INPUT = 1


@dataclass(frozen=True)
class Violation:
    """One problem found in a request the bot made."""

    where: str  # e.g. "PUT /applications/1/commands" or "callback /hurt"
    message: str
    rejected: bool  # True when Discord itself would have refused the request


@cache
def _spec() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    return spec


@cache
def _validator(schema_name: str, *, array: bool = False) -> Draft202012Validator:
    """A validator for one component schema; $refs resolve inside the spec file's components."""
    spec = _spec()
    ref = {"$ref": f"#/components/schemas/{schema_name}"}
    schema: dict[str, Any] = (
        {"type": "array", "items": ref, "maxItems": 130} if array else dict(ref)
    )
    schema["components"] = spec["components"]
    return Draft202012Validator(schema)


def locales() -> frozenset[str]:
    """Locale codes Discord accepts as localization keys."""
    enum = _spec()["components"]["schemas"]["AvailableLocalesEnum"]
    return frozenset(item["const"] for item in enum["oneOf"])


def _describe(error: ValidationError) -> str:
    detail = best_match([error]) if not error.context else best_match(error.context)
    path = detail.json_path if detail is not None else error.json_path
    message = (detail or error).message
    if len(message) > 240:
        message = message[:240] + "…"
    return f"{path}: {message}"


def schema_errors(schema_name: str, instance: Any, *, array: bool = False) -> list[str]:
    """Schema violations of `instance` against a component of the OpenAPI subset."""
    validator = _validator(schema_name, array=array)
    return [_describe(e) for e in validator.iter_errors(instance)]


# --- commands ---------------------------------------------------------------------------------


def _name_ok(name: str) -> bool:
    """Discord's `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, without the regex module."""
    if not 1 <= len(name) <= 32:
        return False
    for ch in name:
        if ch in "-_":
            continue
        if unicodedata.category(ch)[0] in "LN":
            continue
        if "\u0900" <= ch <= "\u097f" or "\u0e00" <= ch <= "\u0e7f":
            continue
        return False
    return True


def _check_name(where: str, name: Any, *, lower: bool) -> list[str]:
    if not isinstance(name, str) or not _name_ok(name):
        return [f"{where}: invalid name {name!r} (1–32 letters, digits, - or _)"]
    if lower and name != name.lower():
        return [f"{where}: name {name!r} must be lower case"]
    return []


def _check_text(where: str, text: Any, low: int, high: int) -> list[str]:
    if not isinstance(text, str) or not low <= len(text) <= high:
        length = len(text) if isinstance(text, str) else text
        return [f"{where}: length {length} outside {low}–{high}"]
    return []


def _check_localizations(
    where: str, values: Any, *, kind: str, lower: bool = False, high: int = 100
) -> list[str]:
    if not values:
        return []
    problems: list[str] = []
    known = locales()
    for key, value in values.items():
        if key not in known:
            problems.append(f"{where}.{kind}: unknown locale {key!r}")
        if kind == "name_localizations":
            problems += _check_name(f"{where}.{kind}[{key}]", value, lower=lower)
        else:
            problems += _check_text(f"{where}.{kind}[{key}]", value, 1, high)
    return problems


def _check_option(where: str, option: dict[str, Any]) -> list[str]:
    problems = _check_name(where, option.get("name"), lower=True)
    problems += _check_text(f"{where}.description", option.get("description"), 1, 100)
    problems += _check_localizations(
        where, option.get("name_localizations"), kind="name_localizations", lower=True
    )
    problems += _check_localizations(
        where, option.get("description_localizations"), kind="description_localizations"
    )
    choices = option.get("choices") or []
    if len(choices) > MAX_CHOICES:
        problems.append(f"{where}: {len(choices)} choices (at most {MAX_CHOICES})")
    for i, choice in enumerate(choices):
        problems += _check_text(f"{where}.choices[{i}].name", choice.get("name"), 1, 100)
        problems += _check_localizations(
            f"{where}.choices[{i}]", choice.get("name_localizations"), kind="choice_localizations"
        )
    if choices and option.get("autocomplete"):
        problems.append(f"{where}: autocomplete and choices are exclusive")
    problems += _check_options(where, option.get("options") or [])
    return problems


def _check_options(where: str, options: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(options) > MAX_OPTIONS:
        problems.append(f"{where}: {len(options)} options (at most {MAX_OPTIONS})")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: duplicate option names {names}")
    seen_optional = False
    for option in options:
        if option.get("type") in SUBCOMMAND_TYPES:
            continue
        if option.get("required"):
            if seen_optional:
                problems.append(
                    f"{where}: required option {option.get('name')!r} after an optional one"
                )
        else:
            seen_optional = True
    kinds = {o.get("type") in SUBCOMMAND_TYPES for o in options}
    if len(kinds) > 1:
        problems.append(f"{where}: subcommands mixed with plain options")
    for option in options:
        problems += _check_option(f"{where} {option.get('name')}", option)
    return problems


def _command_chars(command: dict[str, Any], locale: str | None) -> int:
    def pick(obj: dict[str, Any], key: str) -> str:
        local = (obj.get(f"{key}_localizations") or {}) if locale else {}
        return str(local.get(locale, obj.get(key) or ""))

    def walk(obj: dict[str, Any]) -> int:
        total = len(pick(obj, "name")) + len(pick(obj, "description"))
        for choice in obj.get("choices") or []:
            total += len(pick(choice, "name")) + len(str(choice.get("value", "")))
        return total + sum(walk(o) for o in obj.get("options") or [])

    return walk(command)


def normalize_command(command: dict[str, Any]) -> dict[str, Any]:
    """discord.py sends default_member_permissions as a numeric string; the schema wants an int."""
    command = copy.deepcopy(command)
    perms = command.get("default_member_permissions")
    if isinstance(perms, str) and perms.isdigit():
        command["default_member_permissions"] = int(perms)
    return command


def check_commands(body: Any) -> list[str]:
    """Every problem Discord would find in a bulk overwrite of application commands."""
    if not isinstance(body, list):
        return [f"body must be a list of commands, got {type(body).__name__}"]
    problems = schema_errors(
        "ApplicationCommandUpdateRequest", [normalize_command(c) for c in body], array=True
    )
    keys = [(c.get("type", 1), c.get("name")) for c in body if isinstance(c, dict)]
    if len(set(keys)) != len(keys):
        problems.append(f"duplicate command names: {sorted(str(k) for k in keys)}")
    chat = [c for c in body if isinstance(c, dict) and c.get("type", 1) == CHAT_INPUT]
    if len(chat) > 100:
        problems.append(f"{len(chat)} slash commands (at most 100)")
    for command in body:
        if not isinstance(command, dict):
            continue
        where = f"/{command.get('name')}"
        is_chat = command.get("type", 1) == CHAT_INPUT
        problems += _check_name(where, command.get("name"), lower=is_chat) if is_chat else []
        if is_chat:
            problems += _check_text(f"{where}.description", command.get("description"), 1, 100)
            problems += _check_localizations(
                where, command.get("name_localizations"), kind="name_localizations", lower=True
            )
            problems += _check_localizations(
                where, command.get("description_localizations"), kind="description_localizations"
            )
            problems += _check_options(where, command.get("options") or [])
            for locale in [None, *locales()]:
                chars = _command_chars(command, locale)
                if chars > COMMAND_CHARS:
                    problems.append(
                        f"{where}: {chars} characters for locale {locale} (at most 4000)"
                    )
                    break
    return problems


# --- messages ---------------------------------------------------------------------------------


def normalize_message(payload: dict[str, Any]) -> dict[str, Any]:
    """discord.py sends snowflakes in allowed_mentions as integers; the schema wants strings."""
    payload = copy.deepcopy(payload)
    mentions = payload.get("allowed_mentions")
    if isinstance(mentions, dict):
        for key in ("users", "roles"):
            if isinstance(mentions.get(key), list):
                mentions[key] = [str(v) for v in mentions[key]]
    return payload


def _iter_components(components: list[Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for component in components or []:
        if not isinstance(component, dict):
            continue
        found.append(component)
        found += _iter_components(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            found += _iter_components([accessory])
    return found


def embed_limit_errors(embeds: list[Any]) -> list[str]:
    """The documented embed limits, including the 6,000 characters of a whole message."""
    problems: list[str] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"{len(embeds)} embeds (at most {MAX_EMBEDS})")
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            problems.append(f"embeds[{i}] is not an object")
            continue
        for key, limit in EMBED_LIMITS.items():
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                problems.append(f"embeds[{i}].{key}: {len(text)} characters (at most {limit})")
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            problems.append(f"embeds[{i}]: {len(fields)} fields (at most {EMBED_FIELDS})")
        for j, field in enumerate(fields):
            name, value = str(field.get("name") or ""), str(field.get("value") or "")
            total += len(name) + len(value)
            if not name.strip() or not value.strip():
                problems.append(f"embeds[{i}].fields[{j}]: empty name or value")
            if len(name) > FIELD_NAME:
                problems.append(
                    f"embeds[{i}].fields[{j}].name: {len(name)} characters (at most 256)"
                )
            if len(value) > FIELD_VALUE:
                problems.append(
                    f"embeds[{i}].fields[{j}].value: {len(value)} characters (at most 1024)"
                )
        footer = str((embed.get("footer") or {}).get("text") or "")
        author = str((embed.get("author") or {}).get("name") or "")
        total += len(footer) + len(author)
        if len(footer) > FOOTER_TEXT:
            problems.append(f"embeds[{i}].footer.text: {len(footer)} characters (at most 2048)")
        if len(author) > AUTHOR_NAME:
            problems.append(f"embeds[{i}].author.name: {len(author)} characters (at most 256)")
    if total > EMBEDS_TOTAL:
        problems.append(f"embeds: {total} characters in all (at most {EMBEDS_TOTAL})")
    return problems


def message_errors(payload: Any, schema_name: str, *, creating: bool) -> list[str]:
    """Schema and limit problems of a message body (create, edit or followup)."""
    if not isinstance(payload, dict):
        return [f"message body must be an object, got {type(payload).__name__}"]
    return schema_errors(schema_name, normalize_message(payload)) + message_limit_errors(
        payload, creating=creating
    )


def message_limit_errors(payload: dict[str, Any], *, creating: bool) -> list[str]:
    """The documented limits of a message that the schema does not express."""
    problems: list[str] = []
    content = payload.get("content") or ""
    if len(content) > CONTENT_LIMIT:
        problems.append(f"content: {len(content)} characters (at most {CONTENT_LIMIT})")
    problems += embed_limit_errors(payload.get("embeds") or [])
    components = payload.get("components") or []
    custom_ids = [c["custom_id"] for c in _iter_components(components) if c.get("custom_id")]
    if len(set(custom_ids)) != len(custom_ids):
        problems.append(f"components: duplicate custom_id in {custom_ids}")
    if creating and not (
        content
        or payload.get("embeds")
        or components
        or payload.get("attachments")
        or payload.get("poll")
    ):
        problems.append("cannot send an empty message (code 50006)")
    return problems


def policy_errors(payload: dict[str, Any]) -> list[str]:
    """Project rules Discord would not enforce: every message carries allowed_mentions."""
    if (payload.get("content") or payload.get("embeds")) and "allowed_mentions" not in payload:
        return ["allowed_mentions missing (messages must not ping by accident)"]
    return []


CALLBACK_SCHEMAS = {
    4: "CreateMessageInteractionCallbackRequest",
    5: "CreateMessageInteractionCallbackRequest",
    6: "UpdateMessageInteractionCallbackRequest",
    7: "UpdateMessageInteractionCallbackRequest",
    8: "ApplicationCommandAutocompleteCallbackRequest",
    9: "ModalInteractionCallbackRequest",
}


def callback_errors(body: Any) -> list[str]:
    """Problems of an interaction callback body, including its message data."""
    if not isinstance(body, dict) or body.get("type") not in CALLBACK_SCHEMAS:
        return [f"unsupported interaction callback {body!r:.200}"]
    kind = body["type"]
    data = body.get("data")
    if isinstance(data, dict) and kind in (4, 5, 6, 7):
        body = {**body, "data": normalize_message(data)}
    problems = schema_errors(CALLBACK_SCHEMAS[kind], body)
    if kind in (4, 7) and isinstance(data, dict):
        problems += message_limit_errors(data, creating=kind == 4)
    if kind == 8 and isinstance(data, dict) and len(data.get("choices") or []) > MAX_CHOICES:
        problems.append(f"autocomplete: {len(data['choices'])} choices (at most {MAX_CHOICES})")
    return problems
