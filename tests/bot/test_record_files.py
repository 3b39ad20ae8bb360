"""Reading record files from disk (bot/record_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.record_files import load_record
from engine.serialize import RecordError


def test_load_record_errors(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"variant": "basic",\n "players": [}', encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_record(broken)
    assert info.value.code == "bad_record"
    assert "invalid JSON at line 2" in info.value.message
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RecordError, match="a record is a JSON object"):
        load_record(listed)
    with pytest.raises(RecordError, match="cannot read the file"):
        load_record(tmp_path / "missing.json")
