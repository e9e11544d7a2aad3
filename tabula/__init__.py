"""The words every package of Tabula shares: the root error and the board's 28 locations.

Why a package of its own: the rules, the referee, the serial bridge, the dice reader and
the firmware's simulator all speak of the same locations and refuse input the same way,
and none of them may depend on another for it. It imports nothing but the standard library.
"""
