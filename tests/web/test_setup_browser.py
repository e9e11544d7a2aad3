"""The set-up page walked in a real browser on the simulated board (``setup_walk``): the
token asked for, the links in words, an LED lit and read on the mock pins, a button
pressed and named, the camera calibrated. Screenshots go to ``tests/artifacts/``."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from tests._browser import ARTIFACTS, CHROMIUM

pytest.importorskip("playwright.async_api")

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None, reason="Debian's chromium is missing: make system-deps"
)


def test_a_person_walks_the_set_up_page_on_the_simulated_board(tmp_path: Path) -> None:
    from tests.web.setup_walk import walk

    asyncio.run(walk(tmp_path, ARTIFACTS))
    for name in ("phone", "desktop"):
        assert (ARTIFACTS / f"setup-{name}.png").stat().st_size < 300 * 1024
