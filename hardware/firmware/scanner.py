"""Turns raw Hall-sensor readings into debounced per-location checker counts.

Why on the board: the host must only ever see counts that held for several scans. Each
slot is classified empty / colour A / colour B (with hysteresis, so a reading near a
threshold does not flicker), as stacked when the field is that of two magnets or more,
or as faulty when the reading is outside the range a working sensor gives; a class counts
once it held ``stable_scans`` scans. Stacks deeper than the slots are resolved with the
15-a-side totals (``hardware/README.md``, "Deep stacks").
"""

EMPTY = 0
COLOUR_A = 1
COLOUR_B = 2
FAULT = 3
STACKED = 4
UNKNOWN_CELL = 0xFF
CHECKERS = 15

# Annotations are ignored by MicroPython and evaluated by CPython 3.11: names used only
# by the type checker stay in strings.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .pinmap import HallTable


class Scanner:
    """Classification, hysteresis, debouncing and counting for every slot of the board."""

    def __init__(self, slots_per_location: list[int], hall: "HallTable", stable_scans: int) -> None:
        self.slots_per_location = list(slots_per_location)
        self.count = sum(self.slots_per_location)
        self.mid = hall["mid"]
        self.enter = hall["enter"]
        self.exit = hall["exit"]
        self.stack_enter = hall["stack_enter"]
        self.stack_exit = hall["stack_exit"]
        self.fault_low = hall["fault_low"]
        self.fault_high = hall["fault_high"]
        self.stable_scans = stable_scans
        self.raw = [EMPTY] * self.count
        self.stable = [EMPTY] * self.count
        self.candidate = [EMPTY] * self.count
        self.run = [0] * self.count
        # Per slot, the readings that cannot change its class (see update): none until the
        # first scan classified it.
        self.low = [1] * self.count
        self.high = [0] * self.count
        self.keeps = {}  # type: dict[int, tuple[int, int]]
        for cls in (EMPTY, COLOUR_A, COLOUR_B, COLOUR_A | STACKED, COLOUR_B | STACKED):
            self.keeps[cls] = self._keeping(cls)
        self.location_of = []  # type: list[int]
        self.slot_of = []  # type: list[int]
        for location, slots in enumerate(self.slots_per_location):
            for slot in range(slots):
                self.location_of.append(location)
                self.slot_of.append(slot)

    def classify(self, previous: int, reading: int) -> int:
        """The class of one reading, given the slot's previous raw class (hysteresis)."""
        if reading < self.fault_low or reading > self.fault_high:
            return FAULT
        field = reading - self.mid
        base = previous & 3
        if field > (self.exit if base == COLOUR_A else self.enter):
            colour, strength = COLOUR_A, field
        elif -field > (self.exit if base == COLOUR_B else self.enter):
            colour, strength = COLOUR_B, -field
        else:
            return EMPTY
        was_stacked = previous & STACKED and base == colour
        if strength > (self.stack_exit if was_stacked else self.stack_enter):
            return colour | STACKED
        return colour

    def _keeping(self, cls: int) -> "tuple[int, int]":
        """The readings (low, high) that :meth:`classify` gives ``cls`` when it was ``cls``."""
        mid = self.mid
        low, high = self.fault_low, self.fault_high
        if cls == EMPTY:
            return max(low, mid - self.enter), min(high, mid + self.enter)
        if cls == COLOUR_A:
            return mid + self.exit + 1, min(high, mid + self.stack_enter)
        if cls == COLOUR_A | STACKED:
            return mid + self.stack_exit + 1, high
        if cls == COLOUR_B:
            return max(low, mid - self.stack_enter), mid - self.exit - 1
        return low, mid - self.stack_exit - 1  # COLOUR_B | STACKED

    def update(self, readings: list[int]) -> list[tuple[int, int, int]]:
        """Take one scan; return the (slot, new class, reading) of every debounced change.

        Why the bounds: classifying is most of a scan's time on the board, and a settled
        slot (its class debounced) whose reading stays where its class cannot change
        (:meth:`_keeping`) needs none: the result is the same, at a fraction of the cost.
        """
        changes = []  # type: list[tuple[int, int, int]]
        raw = self.raw
        stable = self.stable
        candidate = self.candidate
        run = self.run
        low = self.low
        high = self.high
        for index in range(self.count):
            reading = readings[index]
            if low[index] <= reading <= high[index]:
                continue
            cls = self.classify(raw[index], reading)
            raw[index] = cls
            if cls == stable[index]:
                run[index] = 0
                low[index], high[index] = self.keeps.get(cls, (1, 0))
                continue
            low[index], high[index] = 1, 0
            if cls == candidate[index]:
                run[index] += 1
            else:
                candidate[index] = cls
                run[index] = 1
            if run[index] >= self.stable_scans:
                stable[index] = cls
                run[index] = 0
                low[index], high[index] = self.keeps.get(cls, (1, 0))
                changes.append((index, cls, reading))
        return changes

    def faults(self) -> int:
        """The number of slots whose debounced class is FAULT."""
        return sum(1 for cls in self.stable if cls == FAULT)

    def cells(self) -> list[int]:
        """The 28 cells (PROTOCOL.md section 2) of the debounced state, stacks resolved."""
        counts = []  # type: list[list[int] | None]
        overflow = []  # type: list[int]
        faulty = False
        index = 0
        for slots in self.slots_per_location:
            a = b = 0
            over = 0
            broken = False
            for cls in self.stable[index : index + slots]:
                if cls == FAULT:
                    broken = True
                elif cls & 3 == COLOUR_A:
                    a += 2 if cls & STACKED else 1
                    over |= COLOUR_A if cls & STACKED else 0
                elif cls & 3 == COLOUR_B:
                    b += 2 if cls & STACKED else 1
                    over |= COLOUR_B if cls & STACKED else 0
            index += slots
            faulty = faulty or broken
            counts.append(None if broken else [a, b])
            overflow.append(over)
        if not faulty:
            _resolve(counts, overflow, 0, COLOUR_A)
            _resolve(counts, overflow, 1, COLOUR_B)
        cells = []  # type: list[int]
        for cell in counts:
            if cell is None or cell[0] > CHECKERS or cell[1] > CHECKERS or cell == [15, 15]:
                cells.append(UNKNOWN_CELL)
            else:
                cells.append(cell[0] | cell[1] << 4)
        return cells


def _resolve(counts: list[list[int] | None], overflow: list[int], side: int, colour: int) -> None:
    """Give the checkers missing from a colour's total to its one deep stack, if any.

    A stacked slot shows two checkers or more; when one location of a colour has a stack,
    the colour's missing checkers are on it. With stacks on several locations the split is
    unknowable: those locations become unknown.
    """
    total = sum(cell[side] for cell in counts if cell is not None)
    missing = CHECKERS - total
    stacks = [i for i, over in enumerate(overflow) if over & colour]
    if missing <= 0 or not stacks:
        return
    stack = counts[stacks[0]]
    if len(stacks) == 1 and stack is not None:
        stack[side] += missing
    else:
        for location in stacks:
            counts[location] = None
