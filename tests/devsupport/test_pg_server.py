"""The throwaway PostgreSQL server of the tests (devsupport.pg_server): it stops in fast
shutdown even with a client still connected, leaves no server process behind, and its
folder is removed."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from devsupport.pg_server import find_binaries, running_server

pytestmark = pytest.mark.skipif(
    find_binaries() is None and not os.environ.get("CI"),
    reason="no PostgreSQL server binaries (bash devsupport/install-system-packages.sh)",
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def test_the_server_stops_with_a_client_connected_and_its_folder_goes() -> None:
    with running_server() as server:
        postmaster = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
        url = server.create()
        client = subprocess.Popen(
            ["psql", url], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL
        )  # an idle session, as a pool a test forgot to close
        time.sleep(0.5)
        folder = server.folder
        started = time.monotonic()
    stopping = time.monotonic() - started
    client.kill()
    client.wait()
    assert not _alive(postmaster)
    assert server.process.poll() is not None
    assert stopping < 25, f"the server took {stopping:.1f} s to stop"  # liveness, not speed
    deadline = time.monotonic() + 60
    while folder.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not folder.exists()
