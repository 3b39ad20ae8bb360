"""The engine build the test session reports and checks (tests/conftest.py) and the bench
prints: which engine modules run compiled, and which C extensions are stale."""

from __future__ import annotations

import os
from importlib import machinery
from pathlib import Path

from devsupport.engine_build import engine_build


def test_the_engine_build_counts_compiled_modules_and_names_stale_ones(tmp_path: Path) -> None:
    """A module with a C extension next to it counts as compiled; an extension older than
    its source is stale (it would run instead of the edited code; tests/conftest.py
    refuses to start with one)."""
    package = tmp_path / "engine"
    (package / "sub").mkdir(parents=True)
    suffix = machinery.EXTENSION_SUFFIXES[0]
    for name in ("__init__", "fresh", "old", "sub/plain"):
        (package / f"{name}.py").write_text("")
    assert str(engine_build(package)) == "pure Python"
    (package / f"fresh{suffix}").write_bytes(b"")
    (package / f"old{suffix}").write_bytes(b"")
    os.utime(package / f"old{suffix}", (1_000_000, 1_000_000))
    build = engine_build(package)
    assert (build.compiled, build.modules) == (2, 4)
    assert build.stale == (f"engine/old{suffix}",)
    assert str(build) == "compiled with mypyc: 2 of 4 modules, 1 STALE"
