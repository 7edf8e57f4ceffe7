# Short commands; the README gives the full set-up.
PY ?= .venv/bin/python

.PHONY: test bench bench-tables positions

test:
	$(PY) -m pytest

bench:
	$(PY) -m pytest benchmarks --benchmark-columns=min,median,max,ops --benchmark-sort=name

bench-tables:
	$(PY) benchmarks/peer_table.py
	$(PY) benchmarks/positions_report.py

positions:
	$(PY) scripts/make_benchmark_positions.py
