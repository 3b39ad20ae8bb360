"""Reading game-record files (the engine does no I/O; this is its file side)."""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any

from engine.records import parse_record_text
from engine.serialize import RecordError


def load_record(path: str | PathLike[str]) -> dict[str, Any]:
    """Read and parse a record file (UTF-8 JSON).

    Raises :class:`engine.serialize.RecordError` (code ``bad_record``) when the file cannot
    be read or is not a JSON object.
    """
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:  # ValueError: bad UTF-8, a NUL byte in the path
        raise RecordError(where, f"cannot read the file: {exc}") from None
    return parse_record_text(text, where)
