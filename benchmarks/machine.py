"""The machine a benchmark ran on, as short ``key: value`` lines for the report header.

Everything is read cheaply from the standard library and ``/proc`` (Linux); a value
that cannot be found is reported as ``"unknown"``, never raised.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import sys
from importlib import metadata
from pathlib import Path

from devsupport.engine_build import engine_build

__all__ = ["PEERS", "describe", "header_lines", "package_version"]

#: Distributions whose versions the header names: the project, the peers of the ``bench``
#: extra and the libraries that decide their speed.
PEERS: tuple[str, ...] = (
    "rummikub-solver",
    "cvxpy-base",
    "cvxpy",
    "scipy",
    "highspy",
    "rlcard",
    "numpy",
)


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _cpu() -> str:
    """CPU model, logical CPUs (and those this process may use), from /proc/cpuinfo."""
    model = ""
    mhz = ""
    for line in _read("/proc/cpuinfo").splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key in ("model name", "Processor", "cpu model") and not model:
            model = value.strip()
        elif key == "cpu MHz" and not mhz:
            mhz = value.strip()
    model = model or platform.processor() or platform.machine() or "unknown"
    total = os.cpu_count() or 0
    text = f"{model}, {total} logical CPUs"
    if hasattr(os, "sched_getaffinity"):
        usable = len(os.sched_getaffinity(0))
        if usable != total:
            text += f" ({usable} usable by this process)"
    if mhz:
        text += f", {float(mhz):.0f} MHz"
    return text


def _memory() -> str:
    """Total and available RAM from /proc/meminfo, in GiB."""
    values: dict[str, int] = {}
    for line in _read("/proc/meminfo").splitlines():
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            values[key] = int(parts[0])  # kB
    if "MemTotal" not in values:
        return "unknown"
    gib = 1024 * 1024
    text = f"{values['MemTotal'] / gib:.1f} GiB"
    if "MemAvailable" in values:
        text += f" ({values['MemAvailable'] / gib:.1f} GiB available)"
    return text


def _os() -> str:
    pretty = ""
    for line in _read("/etc/os-release").splitlines():
        if line.startswith("PRETTY_NAME="):
            pretty = line.split("=", 1)[1].strip().strip('"')
    kernel = f"{platform.system()} {platform.release()} {platform.machine()}"
    return f"{pretty}, {kernel}" if pretty else kernel


def _python() -> str:
    build = " ".join(platform.python_build())
    return (
        f"{platform.python_implementation()} {platform.python_version()} "
        f"({build}; {platform.python_compiler()})"
    )


def _disk(workdir: Path) -> str:
    """The file system of ``workdir``: the longest mount point above it in /proc/mounts."""
    try:
        resolved = workdir.resolve()
    except OSError:
        return "unknown"
    best: tuple[str, str, str] | None = None
    for line in _read("/proc/mounts").splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        device, mount, fstype = parts[0], parts[1], parts[2]
        mount_path = Path(mount)
        if (resolved == mount_path or mount_path in resolved.parents) and (
            best is None or len(mount) >= len(best[1])
        ):
            best = (device, mount, fstype)
    if best is None:
        return f"{resolved}"
    device, mount, fstype = best
    return f"{resolved} on {device} ({fstype}, mounted at {mount})"


def package_version(name: str) -> str | None:
    """The installed version of distribution ``name``, or ``None`` when it is missing."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _load() -> str:
    if not hasattr(os, "getloadavg"):
        return "unknown"
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min)"


def describe(workdir: Path | None = None) -> dict[str, str]:
    """The machine as an ordered ``{label: text}`` dict (JSON-ready).

    Labels: cpu, ram, os, python, project, engine (:func:`engine_build`), peers, disk,
    load, date.
    ``workdir`` (default: the current directory) names the file system measured.
    """
    peers = []
    for name in PEERS:
        version = package_version(name)
        if version is not None:
            peers.append(f"{name} {version}")
    return {
        "cpu": _cpu(),
        "ram": _memory(),
        "os": _os(),
        "python": _python(),
        "project": f"rummy-bot {package_version('rummy-bot') or 'unknown'}"
        f" ({Path(sys.prefix).name} at {sys.prefix})",
        "engine": str(engine_build()),
        "peers": ", ".join(peers) if peers else "none installed (pip install -e '.[bench]')",
        "disk": _disk(workdir or Path.cwd()),
        "load": _load(),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
    }


def header_lines(info: dict[str, str]) -> list[str]:
    """The report header: a title line and one ``label: text`` line per entry of ``info``."""
    width = max((len(k) for k in info), default=0)
    return ["rummy-bot bench", *(f"  {k.ljust(width)}  {v}" for k, v in info.items())]
