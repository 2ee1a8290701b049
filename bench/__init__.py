"""Benchmarks: `python -m bench.run_all` runs them all (see README, Performance)."""
