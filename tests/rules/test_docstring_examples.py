"""The examples in the docstrings of the cube, match and codec modules run and hold."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from controller.rules import cube, match, match_id, position_id, xgid


@pytest.mark.parametrize("module", [cube, match, match_id, position_id, xgid])
def test_docstring_examples(module: ModuleType) -> None:
    failures, tried = doctest.testmod(module, raise_on_error=False)
    assert tried > 0, f"{module.__name__} has no examples"
    assert failures == 0
