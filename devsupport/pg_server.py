"""A throwaway PostgreSQL server on 127.0.0.1 for the tests and the benchmarks: ``initdb``
in a temporary folder, ``postgres`` on a free port, trust authentication, stopped (and
its folder removed) at the end.

The Debian binaries live in ``/usr/lib/postgresql/<version>/bin``; ``PG_BIN`` names
another folder. PostgreSQL refuses to run as root: a root test run starts the server as
the unprivileged user ``nobody`` (the folder is handed to it). :func:`find_binaries`
returns ``None`` where no server binary exists; tests then skip with that reason.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PgServer", "find_binaries", "running_server"]


def find_binaries() -> Path | None:
    """The folder with ``initdb`` and ``postgres``, or ``None``."""
    wanted = os.environ.get("PG_BIN")
    candidates = (
        [Path(wanted)]
        if wanted
        else sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    )
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PgServer:
    """A running server: ``url(database)`` for connections; ``create(name)`` makes a
    database."""

    def __init__(self, port: int, process: subprocess.Popen[bytes], folder: Path) -> None:
        self.port = port
        self.process = process
        self.folder = folder
        self._count = 0

    def url(self, database: str = "postgres") -> str:
        """The connection URL of ``database`` (user ``postgres``, no password)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create(self, prefix: str = "test") -> str:
        """A new empty database; returns its URL."""
        self._count += 1
        name = f"{prefix}_{os.getpid()}_{self._count}"
        _run(
            [
                "psql",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-q",
                "-c",
                f"CREATE DATABASE {name}",
            ]
        )
        return self.url(name)


def _run(command: list[str], user: str | None = None) -> None:
    if user is not None:
        command = ["runuser", "-u", user, "--", *command]
    subprocess.run(command, check=True, capture_output=True, timeout=120)


@contextlib.contextmanager
def running_server() -> Iterator[PgServer]:
    """Start a server for the ``with`` block (see the module docstring). Raises
    ``RuntimeError`` when there is no PostgreSQL binary or it does not come up."""
    binaries = find_binaries()
    if binaries is None:
        raise RuntimeError("no PostgreSQL server binaries (initdb, postgres) on this machine")
    folder = Path(tempfile.mkdtemp(prefix="rummy-pg-"))
    data = folder / "data"
    user = "nobody" if os.geteuid() == 0 else None
    if user is not None:
        shutil.chown(folder, user)
        folder.chmod(0o700)
    _run(
        [
            str(binaries / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        ],
        user,
    )
    port = _free_port()
    command = [
        str(binaries / "postgres"),
        "-D",
        str(data),
        "-p",
        str(port),
        "-k",
        str(folder),
        "-h",
        "127.0.0.1",
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "max_connections=200",
    ]
    if user is not None:
        command = ["runuser", "-u", user, "--", *command]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    server = PgServer(port, process, folder)
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                err = process.stderr.read().decode() if process.stderr else ""
                raise RuntimeError(f"postgres exited: {err[-500:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("postgres did not come up in 30 s") from None
                time.sleep(0.1)
        # the socket accepts before the server takes queries: wait for a real answer
        while True:
            probe = subprocess.run(
                [
                    "psql",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "-U",
                    "postgres",
                    "-d",
                    "postgres",
                    "-qtc",
                    "SELECT 1",
                ],
                capture_output=True,
                timeout=30,
                check=False,
            )
            if probe.returncode == 0:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"postgres does not answer: {probe.stderr.decode()[-300:]}")
            time.sleep(0.2)
        yield server
    finally:
        _stop(process, data)
        # The folder holds a database per test (gigabytes after a whole run): it is removed
        # by a process of its own, so the test session does not wait for the disk.
        subprocess.Popen(
            ["rm", "-rf", str(folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )


def _stop(process: subprocess.Popen[bytes], data: Path) -> None:
    """Stop the server in PostgreSQL's fast shutdown (SIGINT to the postmaster: clients
    are disconnected, nothing waits for them), then reap ``process`` (the postmaster, or
    ``runuser`` in front of it, which forwards no SIGINT)."""
    try:
        postmaster = int((data / "postmaster.pid").read_text().split()[0])
        os.kill(postmaster, signal.SIGINT)
        if postmaster == process.pid:
            process.wait(timeout=30)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            os.kill(postmaster, 0)  # raises once it is gone (runuser reaps it)
            time.sleep(0.05)
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        pass  # never started, gone, or left to terminate() below
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=30)
