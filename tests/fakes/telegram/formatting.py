"""Message text formatting as Telegram does it: parse modes, entities, length limits.

The HTML, MarkdownV2 and Markdown parsers are ports of TDLib's ``parse_html``,
``parse_markdown_v2`` and ``parse_markdown`` (td/telegram/MessageEntity.cpp), which
the Bot API server uses; error texts and *byte* offsets in them match what
Telegram answers ("can't parse entities: Unsupported start tag "foo" at byte
offset 3"). Entity offsets and lengths are UTF-16 code units, as in the Bot API.
Link normalisation (``<a href>``) is simplified: scheme added, host must contain
a dot.

After parsing, leading and trailing white space is trimmed; the remaining text
must be 1..4096 characters (Unicode code points: Telegram accepts 4096 emoji,
which are 8192 UTF-16 units).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .errors import MESSAGE_TOO_LONG, TEXT_EMPTY, bad_request

MAX_TEXT_LENGTH = 4096

UserLookup = Callable[[int], "dict[str, Any] | None"]

# TDLib entity kinds -> Bot API MessageEntity.type
_API_TYPES = {
    "Bold": "bold",
    "Italic": "italic",
    "Underline": "underline",
    "Strikethrough": "strikethrough",
    "Spoiler": "spoiler",
    "Code": "code",
    "Pre": "pre",
    "PreCode": "pre",
    "TextUrl": "text_link",
    "MentionName": "text_mention",
    "CustomEmoji": "custom_emoji",
    "BlockQuote": "blockquote",
    "ExpandableBlockQuote": "expandable_blockquote",
}
# MessageEntity::get_type_priority; entities are sorted by (offset, -length, priority).
_PRIORITY = {
    "Bold": 90,
    "Italic": 91,
    "Underline": 92,
    "Strikethrough": 93,
    "Spoiler": 94,
    "CustomEmoji": 99,
    "Code": 20,
    "Pre": 11,
    "PreCode": 10,
    "TextUrl": 49,
    "MentionName": 49,
    "BlockQuote": 0,
    "ExpandableBlockQuote": 0,
}
_HTML_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "span",
        "pre",
        "code",
        "blockquote",
    }
)
_HTML_NAMED = {b"lt": 0x3C, b"gt": 0x3E, b"amp": 0x26, b"quot": 0x22}
_TRIM = " \t\r\n\v\f"


class EntityParseError(Exception):
    """A parse-mode error; ``str(error)`` is TDLib's message."""


@dataclass
class _Entity:
    kind: str
    offset: int
    length: int
    argument: str = ""
    user_id: int = 0


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (the unit of entity offsets)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _units(byte: int) -> int:
    """UTF-16 units added by a UTF-8 byte: 1 per lead byte, 2 for 4-byte sequences."""
    if byte & 0xC0 == 0x80:
        return 0
    return 2 if byte >= 0xF0 else 1


def _is_space(byte: int) -> bool:
    # td::is_space counts the terminating NUL as space; ``_at`` returns 0 past the end.
    return byte in (0x20, 0x09, 0x0D, 0x0A, 0x0B, 0x00)


def _is_alnum(byte: int) -> bool:
    return 0x30 <= byte <= 0x39 or 0x41 <= byte <= 0x5A or 0x61 <= byte <= 0x7A


def _lower(raw: bytes) -> str:
    return raw.lower().decode("utf-8", "replace")


def _char(code: int) -> bytes:
    return chr(code).encode("utf-8", "surrogatepass")


def _checked_link(url: str) -> str | None:
    """A simplified ``LinkManager::get_checked_link``: None when the link is unusable."""
    url = url.strip()
    if not url:
        return None
    if url.lower().startswith(("tg:", "ton:")):
        return url
    if "://" not in url:
        url = "http://" + url
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname or ""
    if scheme not in ("http", "https", "ftp") or "." not in host:
        return None
    result = f"{scheme}://{parts.netloc}{parts.path or '/'}"
    if parts.query or "?" in url.split("#", 1)[0]:
        result += "?" + parts.query
    if parts.fragment:
        result += "#" + parts.fragment
    return result


_USER_LINK = re.compile(r"^tg:(?://)?user\?(?:.*&)?id=(\d+)(?:&.*)?$", re.IGNORECASE)


def _link_user_id(url: str) -> int:
    match = _USER_LINK.match(url.strip())
    return int(match.group(1)) if match else 0


def _custom_emoji_id(url: str) -> str:
    """``LinkManager::get_link_custom_emoji_id`` for MarkdownV2 ``![x](tg://emoji?id=N)``."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise EntityParseError("Custom emoji URL must have scheme tg") from exc
    if parts.scheme.lower() != "tg":
        raise EntityParseError("Custom emoji URL must have scheme tg")
    host = parts.netloc or parts.path.split("?", 1)[0]
    if host.lower().rstrip("/") != "emoji":
        raise EntityParseError('Custom emoji URL must have host "emoji"')
    ids = [
        value for key, _, value in (p.partition("=") for p in parts.query.split("&")) if key == "id"
    ]
    if not ids:
        raise EntityParseError("Custom emoji URL must have an emoji identifier")
    value = ids[0]
    if not value.isdigit() or value.startswith("0"):
        raise EntityParseError("Invalid custom emoji identifier specified")
    return value


def _link_entity(kind_offset: int, length: int, url: str) -> _Entity | None:
    user_id = _link_user_id(url)
    if user_id:
        return _Entity("MentionName", kind_offset, length, user_id=user_id)
    checked = _checked_link(url)
    if checked is None:
        return None
    return _Entity("TextUrl", kind_offset, length, checked)


def _decode_html_entity(text: bytes, pos: int) -> tuple[int, int]:
    """``decode_html_entity``: (code point, position after it), or (0, pos) if none."""

    def at(k: int) -> int:
        return text[k] if k < len(text) else 0

    end = pos + 1
    code = 0
    if at(pos + 1) == 0x23:  # '#'
        end += 1
        if at(pos + 2) == 0x78:  # 'x'
            end += 1
            while chr(at(end)) in "0123456789abcdefABCDEF" and at(end):
                code = code * 16 + int(chr(at(end)), 16)
                end += 1
        else:
            while 0x30 <= at(end) <= 0x39:
                code = code * 10 + at(end) - 0x30
                end += 1
        if code == 0 or code >= 0x10FFFF or end - pos >= 10:
            return 0, pos
    else:
        while 0x41 <= at(end) <= 0x5A or 0x61 <= at(end) <= 0x7A:
            end += 1
        code = _HTML_NAMED.get(text[pos + 1 : end], 0)
        if code == 0:
            return 0, pos
    if at(end) == 0x3B:  # ';'
        end += 1
    return code, end


def parse_html(source: str) -> tuple[str, list[_Entity]]:
    """Port of TDLib ``parse_html``; raises ``EntityParseError`` with TDLib's message."""
    text = source.encode("utf-8", "surrogatepass")
    size = len(text)

    def at(k: int) -> int:
        return text[k] if k < size else 0

    out = bytearray()
    entities: list[_Entity] = []
    nested: list[tuple[str, str, int, int]] = []  # tag, argument, utf16 offset, out position
    utf16 = 0
    need_recheck = False
    i = 0
    while i < size:
        c = text[i]
        if c == 0x26:  # '&'
            code, end = _decode_html_entity(text, i)
            if code:
                utf16 += 2 if code > 0xFFFF else 1
                need_recheck = need_recheck or 0xD800 <= code <= 0xDFFF
                out += _char(code)
                i = end
                continue
        if c != 0x3C:  # '<'
            utf16 += _units(c)
            out.append(c)
            i += 1
            continue

        begin = i
        i += 1
        if at(i) != 0x2F:  # start tag
            while not _is_space(at(i)) and at(i) != 0x3E:
                i += 1
            if at(i) == 0:
                raise EntityParseError(f"Unclosed start tag at byte offset {begin}")
            tag = _lower(text[begin + 1 : i])
            if tag not in _HTML_TAGS:
                raise EntityParseError(f'Unsupported start tag "{tag}" at byte offset {begin}')
            argument = ""
            while at(i) != 0x3E:
                while at(i) != 0 and _is_space(at(i)):
                    i += 1
                if at(i) == 0x3E:
                    break
                name_begin = i
                while not _is_space(at(i)) and at(i) not in b"=>/\"'":
                    i += 1
                name = text[name_begin:i]
                if not name:
                    raise EntityParseError(
                        f'Empty attribute name in the tag "{tag}" at byte offset {begin}'
                    )
                while at(i) != 0 and _is_space(at(i)):
                    i += 1
                if at(i) != 0x3D:  # attribute without a value
                    if at(i) == 0:
                        raise EntityParseError(f'Unclosed start tag "{tag}" at byte offset {begin}')
                    if tag == "blockquote" and name == b"expandable":
                        argument = "1"
                    continue
                i += 1
                while at(i) != 0 and _is_space(at(i)):
                    i += 1
                if at(i) == 0:
                    raise EntityParseError(f'Unclosed start tag "{tag}" at byte offset {begin}')
                if at(i) not in (0x22, 0x27):  # a name token
                    token_begin = i
                    while _is_alnum(at(i)) or at(i) in (0x2E, 0x2D):
                        i += 1
                    value = _lower(text[token_begin:i])
                    if not _is_space(at(i)) and at(i) != 0x3E:
                        raise EntityParseError(
                            f"Unexpected end of name token at byte offset {token_begin}"
                        )
                else:  # a quoted string
                    quote = at(i)
                    i += 1
                    raw_value = bytearray()
                    while at(i) != quote and at(i) != 0:
                        if at(i) == 0x26:
                            code, end = _decode_html_entity(text, i)
                            if code:
                                raw_value += _char(code)
                                i = end
                                continue
                        raw_value.append(at(i))
                        i += 1
                    if at(i) == quote:
                        i += 1
                    value = bytes(raw_value).decode("utf-8", "replace")
                if at(i) == 0:
                    raise EntityParseError(f"Unclosed start tag at byte offset {begin}")
                if tag == "a" and name == b"href":
                    argument = value
                elif tag == "code" and name == b"class" and value.startswith("language-"):
                    argument = value[9:]
                elif tag == "span" and name == b"class" and value.startswith("tg-"):
                    argument = value[3:]
                elif tag == "tg-emoji" and name == b"emoji-id":
                    argument = value
                elif tag == "blockquote" and name == b"expandable":
                    argument = "1"
            if tag == "span" and argument != "spoiler":
                raise EntityParseError(
                    f'Tag "span" must have class "tg-spoiler" at byte offset {begin}'
                )
            nested.append((tag, argument, utf16, len(out)))
        else:  # end tag
            if not nested:
                raise EntityParseError(f"Unexpected end tag at byte offset {begin}")
            while not _is_space(at(i)) and at(i) != 0x3E:
                i += 1
            end_tag = _lower(text[begin + 2 : i])
            while _is_space(at(i)) and at(i) != 0:
                i += 1
            if at(i) != 0x3E:
                raise EntityParseError(f"Unclosed end tag at byte offset {begin}")
            tag, argument, offset, out_pos = nested[-1]
            if end_tag and end_tag != tag:
                raise EntityParseError(
                    f'Unmatched end tag at byte offset {begin}, expected "</{tag}>", '
                    f'found "</{end_tag}>"'
                )
            if utf16 > offset:
                _close_html_entity(entities, tag, argument, offset, utf16 - offset, out, out_pos)
            nested.pop()
        i += 1  # past '>'
    if nested:
        raise EntityParseError(f'Can\'t find end tag corresponding to start tag "{nested[-1][0]}"')
    for entity in entities:
        if entity.kind == "Code":
            entity.argument = ""
    try:
        result = out.decode("utf-8")
    except UnicodeDecodeError as exc:
        if need_recheck:
            raise EntityParseError(
                "Text contains invalid Unicode characters after decoding HTML entities, check "
                "for unmatched surrogate code units"
            ) from exc
        raise
    return result, entities


def _close_html_entity(
    entities: list[_Entity],
    tag: str,
    argument: str,
    offset: int,
    length: int,
    out: bytearray,
    out_pos: int,
) -> None:
    simple = {
        "i": "Italic",
        "em": "Italic",
        "b": "Bold",
        "strong": "Bold",
        "s": "Strikethrough",
        "strike": "Strikethrough",
        "del": "Strikethrough",
        "u": "Underline",
        "ins": "Underline",
        "tg-spoiler": "Spoiler",
        "span": "Spoiler",
    }
    last = entities[-1] if entities else None
    if tag in simple:
        entities.append(_Entity(simple[tag], offset, length))
    elif tag == "tg-emoji":
        if not argument.isdigit() or int(argument) == 0:
            raise EntityParseError("Invalid custom emoji identifier specified")
        entities.append(_Entity("CustomEmoji", offset, length, str(int(argument))))
    elif tag == "a":
        url = argument or out[out_pos:].decode("utf-8", "replace")
        link = _link_entity(offset, length, url)
        if link is not None:
            entities.append(link)
    elif tag == "pre":
        if (
            last is not None
            and last.kind == "Code"
            and (last.offset, last.length) == (offset, length)
            and last.argument
        ):
            last.kind = "PreCode"
        else:
            entities.append(_Entity("Pre", offset, length))
    elif tag == "code":
        if (
            last is not None
            and last.kind == "Pre"
            and (last.offset, last.length) == (offset, length)
            and argument
        ):
            last.kind = "PreCode"
            last.argument = argument
        else:
            entities.append(_Entity("Code", offset, length, argument))
    else:  # blockquote
        kind = "ExpandableBlockQuote" if argument else "BlockQuote"
        entities.append(_Entity(kind, offset, length))


_MDV2_RESERVED = b"_*[]()~`>#+-=|{}.!\n"


def parse_markdown_v2(source: str) -> tuple[str, list[_Entity]]:
    """Port of TDLib ``parse_markdown_v2``; raises ``EntityParseError`` with TDLib's message."""
    text = source.encode("utf-8", "surrogatepass")
    size = len(text)

    def at(k: int) -> int:
        return text[k] if k < size else 0

    def reserved(byte: int) -> EntityParseError:
        return EntityParseError(
            f"Character '{chr(byte)}' is reserved and must be escaped with the preceding '\\'"
        )

    out = bytearray()
    entities: list[_Entity] = []
    # kind, argument, utf16 offset, byte offset in the source, out position
    nested: list[tuple[str, str, int, int, int]] = []
    utf16 = 0
    have_blockquote = False
    i = 0
    while i < size:
        c = text[i]
        if c == 0x5C and 0 < at(i + 1) <= 126:  # backslash escape
            utf16 += 1
            out.append(text[i + 1])
            i += 2
            continue
        specials = _MDV2_RESERVED
        if nested and nested[-1][0] in ("Code", "Pre", "PreCode"):
            specials = b"`"
        if c not in specials:
            utf16 += _units(c)
            out.append(c)
            i += 1
            continue

        is_end = False
        if nested:
            top = nested[-1][0]
            if have_blockquote and c == 0x0A and (i + 1 == size or text[i + 1] != 0x3E):
                is_end = True
            elif top == "Bold":
                is_end = c == 0x2A
            elif top == "Italic":
                is_end = c == 0x5F and at(i + 1) != 0x5F
            elif top == "Code":
                is_end = c == 0x60
            elif top in ("Pre", "PreCode"):
                is_end = c == 0x60 and at(i + 1) == 0x60 and at(i + 2) == 0x60
            elif top in ("TextUrl", "CustomEmoji"):
                is_end = c == 0x5D
            elif top == "Underline":
                is_end = c == 0x5F and at(i + 1) == 0x5F
            elif top == "Strikethrough":
                is_end = c == 0x7E
            elif top == "Spoiler":
                is_end = c == 0x7C and at(i + 1) == 0x7C

        if not is_end:
            kind = ""
            argument = ""
            byte_offset = i
            if c == 0x5F:  # _
                if at(i + 1) == 0x5F:
                    kind = "Underline"
                    i += 1
                else:
                    kind = "Italic"
            elif c == 0x2A:
                kind = "Bold"
            elif c == 0x7E:
                kind = "Strikethrough"
            elif c == 0x7C:  # |
                if at(i + 1) != 0x7C:
                    raise reserved(c)
                i += 1
                kind = "Spoiler"
            elif c == 0x5B:
                kind = "TextUrl"
            elif c == 0x60:  # `
                if at(i + 1) == 0x60 and at(i + 2) == 0x60:
                    i += 3
                    kind = "Pre"
                    language_end = i
                    while not _is_space(at(language_end)) and at(language_end) != 0x60:
                        language_end += 1
                    if i != language_end and language_end < size and at(language_end) != 0x60:
                        kind = "PreCode"
                        argument = text[i:language_end].decode("utf-8", "replace")
                        i = language_end
                    if at(i) in (0x0A, 0x0D):  # skip one new line after the opening
                        if at(i + 1) in (0x0A, 0x0D) and at(i) != at(i + 1):
                            i += 2
                        else:
                            i += 1
                    i -= 1
                else:
                    kind = "Code"
            elif c == 0x21:  # !
                if at(i + 1) != 0x5B:
                    raise reserved(c)
                i += 1
                kind = "CustomEmoji"
            elif c == 0x0A:
                utf16 += 1
                out.append(0x0A)
                if i + 1 < size and text[i + 1] == 0x3E:
                    i += 1
                    if not have_blockquote:
                        kind = "BlockQuote"
                        have_blockquote = True
            elif c == 0x3E and i == 0:
                kind = "BlockQuote"
                have_blockquote = True
            else:
                raise reserved(c)
            if kind:
                nested.append((kind, argument, utf16, byte_offset, len(out)))
            i += 1
            continue

        kind, argument, offset, byte_offset, out_pos = nested[-1]
        if c == 0x0A and kind != "BlockQuote":
            raise EntityParseError(f"Can't find end of {kind} entity at byte offset {byte_offset}")
        skip = utf16 == offset
        entity: _Entity | None = None
        if kind in ("Underline", "Spoiler"):
            i += 1
        elif kind in ("Pre", "PreCode"):
            i += 2
        elif kind in ("TextUrl", "CustomEmoji"):
            if kind == "TextUrl" and at(i + 1) != 0x28:
                url = out[out_pos:].decode("utf-8", "replace")
            else:
                if at(i + 1) != 0x28:
                    raise EntityParseError("Custom emoji entity must contain a tg://emoji URL")
                i += 2
                url_begin = i
                raw_url = bytearray()
                while i < size and text[i] != 0x29:
                    if text[i] == 0x5C and 0 < at(i + 1) <= 126:
                        raw_url.append(text[i + 1])
                        i += 2
                        continue
                    raw_url.append(text[i])
                    i += 1
                if at(i) != 0x29:
                    what = "a URL" if kind == "TextUrl" else "a custom emoji URL"
                    raise EntityParseError(f"Can't find end of {what} at byte offset {url_begin}")
                url = raw_url.decode("utf-8", "replace")
            if kind == "CustomEmoji":
                entity = _Entity(kind, offset, utf16 - offset, _custom_emoji_id(url))
            else:
                entity = _link_entity(offset, utf16 - offset, url)
                skip = skip or entity is None
        elif kind == "BlockQuote":
            have_blockquote = False
            out.append(text[i])
            utf16 += 1
        if not skip:
            entities.append(entity or _Entity(kind, offset, utf16 - offset, argument))
        nested.pop()
        i += 1

    if have_blockquote and nested and nested[-1][0] == "BlockQuote":
        kind, _, offset, _, _ = nested.pop()
        if utf16 != offset:
            entities.append(_Entity(kind, offset, utf16 - offset))
    if nested:
        kind, _, _, byte_offset, _ = nested[-1]
        raise EntityParseError(f"Can't find end of {kind} entity at byte offset {byte_offset}")
    return out.decode("utf-8", "replace"), entities


def parse_markdown(source: str) -> tuple[str, list[_Entity]]:
    """Port of TDLib ``parse_markdown`` (legacy "Markdown" parse mode)."""
    text = source.encode("utf-8", "surrogatepass")
    size = len(text)

    def at(k: int) -> int:
        return text[k] if k < size else 0

    out = bytearray()
    entities: list[_Entity] = []
    utf16 = 0
    i = 0
    while i < size:
        c = text[i]
        if c == 0x5C and at(i + 1) in b"_*`[":
            out.append(text[i + 1])
            utf16 += 1
            i += 2
            continue
        if c not in b"_*`[":
            utf16 += _units(c)
            out.append(c)
            i += 1
            continue
        begin = i
        end_char = 0x5D if c == 0x5B else c
        is_pre = False
        language = ""
        i += 1
        if c == 0x60 and at(i) == 0x60 and at(i + 1) == 0x60:
            i += 2
            is_pre = True
            language_end = i
            while not _is_space(at(language_end)) and at(language_end) != 0x60:
                language_end += 1
            if i != language_end and language_end < size and at(language_end) != 0x60:
                language = text[i:language_end].decode("utf-8", "replace")
                i = language_end
            if at(i) in (0x0A, 0x0D):
                if at(i + 1) in (0x0A, 0x0D) and at(i) != at(i + 1):
                    i += 2
                else:
                    i += 1
        offset = utf16
        while i < size and (
            text[i] != end_char or (is_pre and not (at(i + 1) == 0x60 and at(i + 2) == 0x60))
        ):
            utf16 += _units(text[i])
            out.append(text[i])
            i += 1
        if i == size:
            raise EntityParseError(f"Can't find end of the entity starting at byte offset {begin}")
        if offset != utf16:
            length = utf16 - offset
            if c == 0x5F:
                entities.append(_Entity("Italic", offset, length))
            elif c == 0x2A:
                entities.append(_Entity("Bold", offset, length))
            elif c == 0x5B:
                if at(i + 1) != 0x28:
                    url = text[begin + 1 : i].decode("utf-8", "replace")
                else:
                    i += 2
                    url_bytes = bytearray()
                    while i < size and text[i] != 0x29:
                        url_bytes.append(text[i])
                        i += 1
                    url = url_bytes.decode("utf-8", "replace")
                link = _link_entity(offset, length, url)
                if link is not None:
                    entities.append(link)
            elif is_pre:
                kind = "PreCode" if language else "Pre"
                entities.append(_Entity(kind, offset, length, language))
            else:
                entities.append(_Entity("Code", offset, length))
        if is_pre:
            i += 2
        i += 1
    return out.decode("utf-8", "replace"), entities


_PARSERS: dict[str, Callable[[str], tuple[str, list[_Entity]]]] = {
    "html": parse_html,
    "markdownv2": parse_markdown_v2,
    "markdown": parse_markdown,
}


def _to_api(entity: _Entity, users: UserLookup) -> dict[str, Any] | None:
    result: dict[str, Any] = {
        "type": _API_TYPES[entity.kind],
        "offset": entity.offset,
        "length": entity.length,
    }
    if entity.kind == "PreCode":
        result["language"] = entity.argument
    elif entity.kind == "TextUrl":
        result["url"] = entity.argument
    elif entity.kind == "CustomEmoji":
        result["custom_emoji_id"] = entity.argument
    elif entity.kind == "MentionName":
        user = users(entity.user_id)
        if user is None:
            return None
        result["user"] = user
    return result


def _explicit_entities(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise bad_request("can't parse entities JSON object")
    result = []
    for item in value:
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("type"), str)
            or not isinstance(item.get("offset"), int)
            or not isinstance(item.get("length"), int)
        ):
            raise bad_request("can't parse MessageEntity JSON object")
        result.append({k: v for k, v in item.items() if v is not None})
    return result


def _trim(text: str, entities: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    stripped = text.strip(_TRIM)
    if stripped == text:
        return text, entities
    shift = utf16_len(text[: len(text) - len(text.lstrip(_TRIM))])
    limit = utf16_len(stripped)
    result = []
    for entity in entities:
        start = max(entity["offset"] - shift, 0)
        end = min(entity["offset"] + entity["length"] - shift, limit)
        if end > start:
            result.append({**entity, "offset": start, "length": end - start})
    return stripped, result


def format_text(
    text: Any,
    parse_mode: Any = None,
    entities: Any = None,
    users: UserLookup = lambda _user_id: None,
) -> tuple[str, list[dict[str, Any]]]:
    """Message text and Bot API entities as Telegram would store them.

    ``parse_mode`` is "HTML", "MarkdownV2" or "Markdown" (any case) and wins over
    explicit ``entities``. ``users`` resolves ``tg://user?id=`` links to User
    JSON (unknown users drop the mention). Raises ``ApiError`` 400: "can't parse
    entities: ..." for markup errors, "unsupported parse_mode", "message text is
    empty" and "message is too long" (more than 4096 characters after parsing
    and trimming).
    """
    if not isinstance(text, str) or not text:
        raise bad_request(TEXT_EMPTY)
    mode = parse_mode.strip().lower() if isinstance(parse_mode, str) else ""
    api_entities: list[dict[str, Any]]
    if mode:
        parser = _PARSERS.get(mode)
        if parser is None:
            raise bad_request("unsupported parse_mode")
        try:
            text, parsed = parser(text)
        except EntityParseError as exc:
            raise bad_request(f"Can't parse entities: {exc}") from exc
        parsed.sort(key=lambda e: (e.offset, -e.length, _PRIORITY[e.kind]))
        api_entities = [d for d in (_to_api(e, users) for e in parsed) if d is not None]
    elif entities is not None:
        api_entities = _explicit_entities(entities)
    else:
        api_entities = []
    text, api_entities = _trim(text, api_entities)
    if not text:
        raise bad_request(TEXT_EMPTY)
    if len(text) > MAX_TEXT_LENGTH:
        raise bad_request(MESSAGE_TOO_LONG)
    return text, api_entities


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _is_command_char(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


def find_bot_commands(text: str) -> list[dict[str, Any]]:
    """``bot_command`` entities Telegram adds to a user's message (TDLib ``match_bot_commands``).

    A command is ``/name`` (1..64 of ``[A-Za-z0-9_]``) optionally followed by
    ``@botname`` (3..32), not glued to a word or to ``/``, ``<``, ``>``.
    """
    result: list[dict[str, Any]] = []
    size = len(text)
    i = text.find("/")
    while i >= 0:
        if i > 0 and (_is_word(text[i - 1]) or text[i - 1] in "/<>"):
            i = text.find("/", i + 1)
            continue
        j = i + 1
        while j < size and _is_command_char(text[j]):
            j += 1
        end = j
        valid = 1 <= j - i - 1 <= 64
        if valid and j < size and text[j] == "@":
            k = j + 1
            while k < size and _is_command_char(text[k]):
                k += 1
            valid = 3 <= k - j - 1 <= 32
            end = k
        following = text[end] if end < size else ""
        if valid and not (following and (_is_word(following) or following in "/<>")):
            result.append(
                {
                    "type": "bot_command",
                    "offset": utf16_len(text[:i]),
                    "length": utf16_len(text[i:end]),
                }
            )
        i = text.find("/", max(end, i + 1))
    return result
