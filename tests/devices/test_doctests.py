"""The examples in the docstrings of controller.devices run and hold."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import controller.devices

MODULES = ["controller.devices"] + [
    f"controller.devices.{info.name}" for info in pkgutil.iter_modules(controller.devices.__path__)
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
