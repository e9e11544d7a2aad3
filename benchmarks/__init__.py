"""Speed and accuracy figures, run on demand: ``python -m benchmarks.<name>``."""
