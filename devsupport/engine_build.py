"""Which build of the ``engine`` package runs: pure Python or compiled with mypyc (README,
"Compiled engine"). The test session prints it in its header and refuses stale C
extensions; ``rummy-bot bench`` prints it in its machine lines."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import machinery
from pathlib import Path

import engine

__all__ = ["EngineBuild", "engine_build"]


@dataclass(frozen=True, slots=True)
class EngineBuild:
    """Which engine modules run compiled (README, "Compiled engine"): ``compiled`` and
    ``modules`` count the engine's ``.py`` files with and without a C extension next to
    them; ``stale`` names the extensions older than their source (they would run instead
    of the edited code)."""

    compiled: int
    modules: int
    stale: tuple[str, ...]

    def __str__(self) -> str:
        if not self.compiled:
            return "pure Python"
        text = f"compiled with mypyc: {self.compiled} of {self.modules} modules"
        return text + (f", {len(self.stale)} STALE" if self.stale else "")


def engine_build(root: Path | None = None) -> EngineBuild:
    """The build of the ``engine`` package in folder ``root`` (default: the imported one):
    a module counts as compiled when a C extension of this interpreter's suffixes lies
    next to its ``.py`` file, and as stale when that extension is older than the source."""
    root = root if root is not None else Path(engine.__file__).parent
    compiled = 0
    stale: list[str] = []
    sources = sorted(root.rglob("*.py"))
    for source in sources:
        for suffix in machinery.EXTENSION_SUFFIXES:
            ext = source.with_name(source.stem + suffix)
            if ext.exists():
                compiled += 1
                if ext.stat().st_mtime < source.stat().st_mtime:
                    stale.append(str(ext.relative_to(root.parent)))
                break
    return EngineBuild(compiled, len(sources), tuple(stale))
