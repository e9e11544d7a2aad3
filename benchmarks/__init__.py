"""Benchmarks, run on demand: ``make bench``, or ``python -m benchmarks [NAME [OPTION...]]...``.

Speed goals live here, never in the test suite. Each ``bench_NAME.py`` declares its
options (``add_options``; ``python -m benchmarks NAME --help`` lists them), the smallest
run of its code path (``SMALL``, which the suite runs) and ``run(options)``, which returns
rows made with :mod:`benchmarks.measure`. The machine is shared, so every row beside its
figure carries a reference measured in the same run (the nearest honest baseline of the
same work, named in the row; its module's docstring says why that one), taken in turns
with the subject, the best of repeats of each, in CPU time unless the work is done by
other processes (then wall time, and the row says so); or, where no baseline exists, the
reason there is none. ``python -m benchmarks`` runs each benchmark in a fresh interpreter
(memory, threads and process-wide settings its own) and writes all the rows to one JSON file
(``benchmarks/results.json`` or ``--json PATH``): per benchmark its options, seconds and
rows (name, figure, unit, reference, what the reference is, ratio, misses, clock, load
average when measured), with the machine (CPU model, cores, architecture, load average at
the start and the end, Python version, date). It prints them as a table too.
"""
