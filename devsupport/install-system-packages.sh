#!/usr/bin/env bash
# The system packages the test suite needs besides Python: PostgreSQL's server binaries
# (every store runs on SQLite and on a throwaway PostgreSQL server: devsupport/pg_server.py)
# and Debian's Chromium (the web table's browser tests drive it through Playwright).
# Debian or Ubuntu, as root (or through sudo): `sudo bash devsupport/install-system-packages.sh`.
# .ci/run calls it too. Installs only what is missing; says what it could not install.
set -uo pipefail

missing=()
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v psql >/dev/null; then
    missing+=(postgresql)
fi
if ! command -v chromium >/dev/null; then
    missing+=(chromium)
fi
if [[ ${#missing[@]} -eq 0 ]]; then
    echo "PostgreSQL and Chromium are installed"
    exit 0
fi
if ! command -v apt-get >/dev/null || [[ $(id -u) -ne 0 ]]; then
    echo "Missing: ${missing[*]}. Install them with your system's package manager (as root);" \
         "without them the PostgreSQL runs are skipped and the browser tests fail." >&2
    exit 1
fi
echo "Installing ${missing[*]}"
apt-get install -y -qq "${missing[@]}" >/dev/null || \
    (apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null) || {
        echo "Could not install ${missing[*]}" >&2
        exit 1
    }
