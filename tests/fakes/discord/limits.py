"""Discord's size limits, checked the way Discord checks them (400 / 50035 with field paths).

Enforced on every message the bot creates or edits (channel messages, interaction
responses, follow-ups, webhook edits):

* content at most 2000 characters; a message needs content, embeds, components, a poll,
  stickers or attachments (else 50006 "Cannot send an empty message");
* at most 10 embeds: title 256, description 4096, 25 fields (name 256, value 1024),
  footer 2048, author 256, 6000 characters in all embeds together;
* components: at most 5 action rows, at most 5 buttons per row, a select alone in its
  row; custom_id 1-100 characters and unique within the message; button label 80;
  link buttons need a url and no custom_id; string selects 1-25 options (label, value,
  description 100 each, values unique), placeholder 150, 0 <= min_values <= max_values
  <= number of options (max 25). Messages flagged IS_COMPONENTS_V2 may not carry content
  or embeds and may hold at most 40 components;
* application commands (bulk overwrite): at most 100 per scope, unique names, names
  ``^[-_'\\w]{1,32}$`` lower case, descriptions 1-100, valid locales in localizations,
  at most 25 options, required options first, at most 25 choices (name 1-100), subcommand
  nesting rules, 4000 characters per command;
* autocomplete results: at most 25 choices, names 1-100; modals: title 1-45, 1-5 rows,
  text input label 45, custom_id 1-100.
"""

from __future__ import annotations

import re
from typing import Any

from . import components as comp
from .entities import Json
from .errors import EMPTY_MESSAGE, DiscordAPIError, FormErrors

Path = tuple[str | int, ...]

CONTENT_MAX = 2000
CUSTOM_ID_MAX = 100
ROWS_MAX = 5
ROW_WIDTH = 5
SELECT_OPTIONS_MAX = 25
OPTION_TEXT_MAX = 100
BUTTON_LABEL_MAX = 80
PLACEHOLDER_MAX = 150
V2_COMPONENTS_MAX = 40
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
COMMANDS_MAX = 100
COMMAND_OPTIONS_MAX = 25
CHOICES_MAX = 25
COMMAND_SIZE_MAX = 4000

LOCALES = frozenset(
    {
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    }
)
"""Locales Discord accepts in name/description localizations and sends as ``locale``."""

COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def check_message(payload: Json, *, creating: bool) -> None:
    """Validate a message create/edit body; raise 400 50035 (or 50006 when empty)."""
    errors = FormErrors()
    flags = payload.get("flags") or 0
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        errors.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
    else:
        errors.check_length(("content",), content, CONTENT_MAX)
    _check_embeds(errors, payload.get("embeds"))
    if flags & comp.IS_COMPONENTS_V2:
        if content or payload.get("embeds"):
            errors.add(
                ("content",) if content else ("embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used when using components v2",
            )
        _check_v2_components(errors, payload.get("components"))
    else:
        _check_action_rows(errors, ("components",), payload.get("components"))
    _check_unique_custom_ids(errors, payload.get("components"))
    errors.raise_if_any()
    if creating:
        check_not_empty(payload)


def check_not_empty(fields: Json) -> None:
    """Raise 50006 when a message would have nothing to show."""
    keys = ("content", "embeds", "components", "attachments", "sticker_ids", "poll")
    if not any(fields.get(key) for key in keys):
        raise DiscordAPIError(400, EMPTY_MESSAGE, "Cannot send an empty message")


def _check_embeds(errors: FormErrors, embeds: Any) -> None:
    if not embeds:
        return
    errors.check_length(("embeds",), embeds, EMBEDS_MAX)
    total = 0
    for index, embed in enumerate(embeds[:EMBEDS_MAX]):
        base: Path = ("embeds", index)
        total += _embed_text(embed)
        errors.check_length((*base, "title"), embed.get("title"), 256)
        errors.check_length((*base, "description"), embed.get("description"), 4096)
        errors.check_length(
            (*base, "footer", "text"), (embed.get("footer") or {}).get("text"), 2048
        )
        errors.check_length((*base, "author", "name"), (embed.get("author") or {}).get("name"), 256)
        fields = embed.get("fields") or []
        errors.check_length((*base, "fields"), fields, 25)
        for number, item in enumerate(fields[:25]):
            errors.check_length((*base, "fields", number, "name"), item.get("name"), 256, low=1)
            errors.check_length((*base, "fields", number, "value"), item.get("value"), 1024, low=1)
    if total > EMBED_TOTAL_MAX:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}",
        )


def _embed_text(embed: Json) -> int:
    parts = [embed.get("title"), embed.get("description")]
    parts.append((embed.get("footer") or {}).get("text"))
    parts.append((embed.get("author") or {}).get("name"))
    for item in embed.get("fields") or []:
        parts.extend((item.get("name"), item.get("value")))
    return sum(len(p) for p in parts if isinstance(p, str))


def _check_action_rows(errors: FormErrors, path: Path, rows: Any) -> None:
    if not rows:
        return
    errors.check_length(path, rows, ROWS_MAX)
    for index, row in enumerate(rows):
        _check_action_row(errors, (*path, index), row)


def _check_action_row(errors: FormErrors, path: Path, row: Json) -> None:
    if row.get("type") != comp.ACTION_ROW:
        errors.add((*path, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be 1.')
        return
    children = row.get("components") or []
    errors.check_length((*path, "components"), children, ROW_WIDTH, low=1)
    selects = [c for c in children if c.get("type") in comp.SELECT_TYPES]
    if selects and len(children) > 1:
        errors.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for index, child in enumerate(children):
        child_path = (*path, "components", index)
        kind = child.get("type")
        if kind == comp.BUTTON:
            _check_button(errors, child_path, child)
        elif kind in comp.SELECT_TYPES:
            _check_select(errors, child_path, child)
        else:
            errors.add(
                (*child_path, "type"),
                "COMPONENT_TYPE_INVALID",
                f"Component type {kind} is not allowed in a message action row",
            )


def _check_button(errors: FormErrors, path: Path, button: Json) -> None:
    style = button.get("style")
    errors.check_length((*path, "label"), button.get("label"), BUTTON_LABEL_MAX)
    if style == comp.LINK_STYLE:
        if not button.get("url"):
            errors.add((*path, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A url is required")
        if "custom_id" in button:
            errors.add(
                (*path, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                "A custom id cannot be specified",
            )
        return
    if style == comp.PREMIUM_STYLE:
        return
    if not button.get("custom_id"):
        errors.add(
            (*path, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required"
        )
    else:
        errors.check_length((*path, "custom_id"), button["custom_id"], CUSTOM_ID_MAX, low=1)


def _check_select(errors: FormErrors, path: Path, select: Json) -> None:
    errors.check_length((*path, "custom_id"), select.get("custom_id") or "", CUSTOM_ID_MAX, low=1)
    errors.check_length((*path, "placeholder"), select.get("placeholder"), PLACEHOLDER_MAX)
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    if not 0 <= min_values <= 25:
        errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be <= 25.")
    if not 1 <= max_values <= 25:
        errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be <= 25.")
    if min_values > max_values:
        errors.add(
            (*path, "min_values"),
            "SELECT_COMPONENT_MIN_VALUES_INVALID",
            "min_values must be less than or equal to max_values",
        )
    if select.get("type") != comp.STRING_SELECT:
        return
    options = select.get("options") or []
    errors.check_length((*path, "options"), options, SELECT_OPTIONS_MAX, low=1)
    if max_values > len(options) and options:
        errors.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_INVALID",
            "max_values must be less than or equal to the number of options",
        )
    seen: set[str] = set()
    for index, option in enumerate(options):
        opt_path = (*path, "options", index)
        errors.check_length((*opt_path, "label"), option.get("label") or "", OPTION_TEXT_MAX, low=1)
        errors.check_length((*opt_path, "value"), option.get("value") or "", OPTION_TEXT_MAX, low=1)
        errors.check_length((*opt_path, "description"), option.get("description"), OPTION_TEXT_MAX)
        if option.get("value") in seen:
            errors.add(
                (*opt_path, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Select component option values must be unique",
            )
        seen.add(option.get("value"))


def _check_v2_components(errors: FormErrors, components: Any) -> None:
    if not components:
        return
    count = sum(1 for _ in comp.walk(components))
    if count > V2_COMPONENTS_MAX:
        errors.add(
            ("components",),
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            f"Maximum number of components exceeded ({V2_COMPONENTS_MAX})",
        )
    for path, component in comp.walk(components):
        full: Path = ("components", *path)
        kind = component.get("type")
        if kind == comp.ACTION_ROW:
            _check_action_row(errors, full, component)
        elif kind == comp.BUTTON and path[-1] == "accessory":
            _check_button(errors, full, component)


def _check_unique_custom_ids(errors: FormErrors, components: Any) -> None:
    seen: set[str] = set()
    for path, component in comp.walk(components):
        custom_id = component.get("custom_id")
        if not isinstance(custom_id, str):
            continue
        if custom_id in seen:
            errors.add(
                ("components", *path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)


def check_commands(commands: Any) -> None:
    """Validate a bulk-overwrite body (list of application commands); raise 400 50035."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "LIST_TYPE_CONVERT", "Must be an array.")
        errors.raise_if_any()
        return
    chat_input = [c for c in commands if c.get("type", 1) == 1]
    errors.check_length((), chat_input, COMMANDS_MAX)
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        key = (command.get("type", 1), command.get("name", ""))
        if key in seen:
            errors.add(
                (index, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        seen.add(key)
        check_command(errors, (index,), command)
    errors.raise_if_any()


def check_command(errors: FormErrors, path: Path, command: Json) -> None:
    """Validate one application command into ``errors``."""
    kind = command.get("type", 1)
    name = command.get("name") or ""
    if kind == 1:
        _check_name(errors, (*path, "name"), name)
        errors.check_length((*path, "description"), command.get("description") or "", 100, low=1)
    else:
        errors.check_length((*path, "name"), name, 32, low=1)
        if command.get("description"):
            errors.add(
                (*path, "description"),
                "APPLICATION_COMMAND_DESCRIPTION_NOT_ALLOWED",
                "Context menu commands cannot have a description",
            )
    _check_localizations(errors, path, command, chat_input=kind == 1)
    _check_options(errors, (*path, "options"), command.get("options") or [], depth=0)
    size = _command_size(command)
    if size > COMMAND_SIZE_MAX:
        errors.add(
            path,
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({COMMAND_SIZE_MAX})",
        )


def _check_name(errors: FormErrors, path: Path, name: str) -> None:
    if not COMMAND_NAME.match(name) or name != name.lower():
        errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _check_localizations(errors: FormErrors, path: Path, item: Json, *, chat_input: bool) -> None:
    for field in ("name_localizations", "description_localizations"):
        for locale, text in (item.get(field) or {}).items():
            where = (*path, field, locale)
            if locale not in LOCALES:
                errors.add(where, "LOCALE_INVALID", f"Invalid locale: {locale}")
            elif field == "name_localizations" and chat_input:
                _check_name(errors, where, text)
            elif field == "description_localizations":
                errors.check_length(where, text, 100, low=1)
            else:
                errors.check_length(where, text, 32, low=1)


def _check_options(errors: FormErrors, path: Path, options: list[Json], *, depth: int) -> None:
    errors.check_length(path, options, COMMAND_OPTIONS_MAX)
    kinds = {o.get("type") for o in options}
    nested = kinds & {1, 2}
    if nested and kinds - {1, 2}:
        errors.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all "
            "other types",
        )
    names: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        where = (*path, index)
        kind = option.get("type")
        name = option.get("name") or ""
        _check_name(errors, (*where, "name"), name)
        if name in names:
            errors.add(
                (*where, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        names.add(name)
        errors.check_length((*where, "description"), option.get("description") or "", 100, low=1)
        _check_localizations(errors, where, option, chat_input=True)
        if (kind == 2 and depth > 0) or (kind == 1 and depth > 1):
            errors.add(
                (*where, "type"),
                "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                "Sub-commands cannot be nested this deep",
            )
        if kind in (1, 2):
            children = option.get("options") or []
            if kind == 2 and any(child.get("type") != 1 for child in children):
                errors.add(
                    (*where, "options"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "A sub-command group may only contain sub-commands",
                )
            _check_options(errors, (*where, "options"), children, depth=depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                errors.add(
                    (*where, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        _check_choices(errors, where, option)


def _check_choices(errors: FormErrors, path: Path, option: Json) -> None:
    choices = option.get("choices") or []
    if choices and option.get("autocomplete"):
        errors.add(
            (*path, "autocomplete"),
            "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
            "Autocomplete cannot be enabled when choices are set",
        )
    errors.check_length((*path, "choices"), choices, CHOICES_MAX)
    for index, choice in enumerate(choices):
        where = (*path, "choices", index)
        errors.check_length((*where, "name"), choice.get("name") or "", 100, low=1)
        value = choice.get("value")
        if isinstance(value, str):
            errors.check_length((*where, "value"), value, 100, low=1)
        for locale, text in (choice.get("name_localizations") or {}).items():
            if locale not in LOCALES:
                errors.add(
                    (*where, "name_localizations", locale), "LOCALE_INVALID", "Invalid locale"
                )
            else:
                errors.check_length((*where, "name_localizations", locale), text, 100, low=1)


def _command_size(command: Json) -> int:
    """Longest total of name, description, option and choice texts over all locales."""
    locales = {None}
    for _, item in _localized_items(command):
        for field in ("name_localizations", "description_localizations"):
            locales.update((item.get(field) or {}).keys())
    best = 0
    for locale in locales:
        total = 0
        for kind, item in _localized_items(command):
            for field in ("name", "description"):
                if kind == "choice" and field == "description":
                    continue
                localized = (item.get(f"{field}_localizations") or {}).get(locale)
                total += len(localized or item.get(field) or "")
            if kind == "choice":
                total += len(str(item.get("value", "")))
        best = max(best, total)
    return best


def _localized_items(item: Json, kind: str = "command") -> list[tuple[str, Json]]:
    found = [(kind, item)]
    for option in item.get("options") or []:
        found.extend(_localized_items(option, "option"))
    for choice in item.get("choices") or []:
        found.append(("choice", choice))
    return found


def check_autocomplete_result(data: Json) -> None:
    """Validate the data of an APPLICATION_COMMAND_AUTOCOMPLETE_RESULT (type 8) callback."""
    errors = FormErrors()
    choices = data.get("choices")
    if not isinstance(choices, list):
        errors.add(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
        errors.raise_if_any()
        return
    errors.check_length(("data", "choices"), choices, CHOICES_MAX)
    for index, choice in enumerate(choices):
        where: Path = ("data", "choices", index)
        errors.check_length((*where, "name"), choice.get("name") or "", 100, low=1)
        if isinstance(choice.get("value"), str):
            errors.check_length((*where, "value"), choice["value"], 100)
    errors.raise_if_any()


def check_modal(data: Json) -> None:
    """Validate the data of a MODAL (type 9) callback."""
    errors = FormErrors()
    errors.check_length(("data", "title"), data.get("title") or "", 45, low=1)
    errors.check_length(("data", "custom_id"), data.get("custom_id") or "", CUSTOM_ID_MAX, low=1)
    rows = data.get("components") or []
    errors.check_length(("data", "components"), rows, 5, low=1)
    for path, component in comp.walk(rows):
        where = ("data", "components", *path)
        if component.get("type") == comp.TEXT_INPUT:
            errors.check_length((*where, "custom_id"), component.get("custom_id") or "", 100, low=1)
            errors.check_length((*where, "label"), component.get("label"), 45)
            errors.check_length((*where, "placeholder"), component.get("placeholder"), 100)
            errors.check_length((*where, "value"), component.get("value"), 4000)
    _check_unique_custom_ids(errors, rows)
    errors.raise_if_any()
