"""The web table's files: the vendored Discord SDK is the bundle its README names (sha256),
every file has its licence listed, and the page needs no build step (plain ES modules whose
imports all resolve to files that are there)."""

from __future__ import annotations

import hashlib
import re

from bot.web.server.routes import STATIC

SDK_SHA256 = "6fd78ecbf2b31b533691a965ef83361283fd7a522380c0d5410ef411e9a52947"


def test_the_vendored_sdk_is_the_bundle_its_readme_names() -> None:
    bundle = (STATIC / "vendor" / "discord-sdk.js").read_bytes()
    assert hashlib.sha256(bundle).hexdigest() == SDK_SHA256
    assert SDK_SHA256 in (STATIC / "vendor" / "README.md").read_text(encoding="utf-8")
    assert b"DiscordSDK" in bundle
    licences = (STATIC / "vendor" / "LICENSES.txt").read_text(encoding="utf-8")
    for package in (
        "@discord/embedded-app-sdk",
        "zod",
        "eventemitter3",
        "uuid",
        "big-integer",
        "decimal.js-light",
        "lodash.transform",
    ):
        assert package in licences


def test_every_file_has_its_licence_listed() -> None:
    listed = (STATIC / "LICENSES.md").read_text(encoding="utf-8")
    for path in STATIC.rglob("*"):
        if path.is_file() and path.suffix in (".js", ".css"):
            assert path.name in listed, path


SVG_NAMESPACE = "http://www.w3.org/2000/svg"
"""The namespace of the card pictures' SVG (cards.js: an SVG image must name it)."""


def test_the_modules_import_only_files_that_are_there() -> None:
    for path in STATIC.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"""(?:from|import\()\s*["'](\.[^"']+)["']""", text):
            assert (path.parent / target).resolve().is_file(), f"{path.name}: {target}"
        text = text.replace(SVG_NAMESPACE, "")  # a name of SVG, no address the page loads
        assert "http://" not in text and "https://" not in text, path.name
