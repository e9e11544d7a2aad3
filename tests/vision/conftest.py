"""Shared fixtures of the vision tests: the labelled real photos copied into the project."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

PHOTOS = Path(__file__).resolve().parents[1] / "data" / "dice-photos"


@pytest.fixture(scope="session")
def photo_labels() -> list[dict[str, Any]]:
    """The manifest of the real dice photos (one dict per photo)."""
    with (PHOTOS / "manifest.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]
