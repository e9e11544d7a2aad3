"""LED scenes: validation, hashing, the repr round trip, blinking."""

from __future__ import annotations

import pytest

from controller.devices import DARK, Colour, Lamp, Pattern, Scene, SceneError, is_lit

SCENES = [
    DARK,
    Scene.of({0: Lamp(Colour.RED)}),
    Scene.of({27: Lamp(Colour.AMBER, Pattern.FLASH)}, status=Lamp(Colour.GREEN, Pattern.SLOW)),
    Scene.all(range(24), Lamp(Colour.GREEN, Pattern.FAST), status=Lamp(Colour.RED)),
    Scene.of({3: Lamp(Colour.OFF, Pattern.FAST)}),
]


@pytest.mark.parametrize("scene", SCENES, ids=repr)
def test_repr_round_trip(scene: Scene) -> None:
    namespace = {"Scene": Scene, "Lamp": Lamp, "Colour": Colour, "Pattern": Pattern}
    assert eval(repr(scene), namespace) == scene


def test_scenes_are_hashable_values() -> None:
    assert len({*SCENES, Scene(), Scene.of({})}) == len(SCENES)
    assert Scene.of({0: Lamp(Colour.RED)}) == Scene((Lamp(Colour.RED),) + (Lamp(),) * 27)


def test_lit_and_with_status() -> None:
    scene = Scene.of({9: Lamp(Colour.GREEN), 2: Lamp(Colour.RED), 5: Lamp()})
    assert scene.lit() == (2, 9)
    assert scene.with_status(Lamp(Colour.AMBER)).status == Lamp(Colour.AMBER)
    assert scene.with_status(Lamp(Colour.AMBER)).lamps == scene.lamps


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Scene((Lamp(),) * 27), r"^scene of 27 lamps: expected 28$"),
        (lambda: Scene.of({28: Lamp()}), r"^scene location 28: expected 0\.\.27$"),
        (lambda: Scene.of({-1: Lamp()}), r"^scene location -1: expected 0\.\.27$"),
        (lambda: Scene.of({0: "red"}), r"^scene lamp 'red' at location 0: expected a Lamp$"),
        (lambda: Scene(status="red"), r"^scene lamp 'red' at status: expected a Lamp$"),
        (lambda: Lamp("red"), r"^lamp colour 'red': expected a Colour$"),
        (lambda: Lamp(Colour.RED, 1), r"^lamp pattern 1: expected a Pattern$"),
    ],
)
def test_bad_scenes(build: object, message: str) -> None:
    with pytest.raises(SceneError, match=message):
        build()  # type: ignore[operator]


def test_blink_timings_match_the_protocol() -> None:
    # hardware/PROTOCOL.md: slow 1 Hz, fast 4 Hz, both half on; flash 100 ms a second.
    lit_ms = {pattern: sum(is_lit(pattern, t) for t in range(1000)) for pattern in Pattern}
    assert lit_ms == {
        Pattern.STEADY: 1000,
        Pattern.SLOW: 500,
        Pattern.FAST: 500,
        Pattern.FLASH: 100,
    }
    edges = {
        pattern: sum(is_lit(pattern, t) != is_lit(pattern, t - 1) for t in range(1000))
        for pattern in Pattern
    }
    assert edges == {Pattern.STEADY: 0, Pattern.SLOW: 2, Pattern.FAST: 8, Pattern.FLASH: 2}
