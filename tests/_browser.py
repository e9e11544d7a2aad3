"""How the tests launch Debian's chromium with Playwright (never ``playwright install``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.async_api import Page

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
"""Screenshots for a person to look at (ignored by git)."""
WAIT_MS = 60_000
"""How long a page's step may take (every wait's default): a bound on hangs, never a
measure of speed, as a busy machine stretches every step."""


@contextlib.asynccontextmanager
async def chromium_page(**options: Any) -> AsyncIterator[Page]:
    """A page of Debian's chromium, headless, opened with ``options`` (a viewport, a phone's
    touch...), each of its waits bounded by :data:`WAIT_MS`; no script of the page may fail
    while it is open (its errors are asserted empty when the block ends)."""
    from playwright.async_api import async_playwright  # the browser tests import it or skip

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            page = await browser.new_page(**options)
            page.set_default_timeout(WAIT_MS)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            yield page
            assert errors == []
        finally:
            await browser.close()
