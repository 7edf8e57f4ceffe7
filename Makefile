# Short commands; the README gives the full set-up.
PY ?= .venv/bin/python

.PHONY: test test-fast lint-imports bench bench-tables bench-peers positions

test:
	$(PY) -m pytest

# The developer's default: everything but the tests marked slow (browser, long searches).
test-fast:
	$(PY) -m pytest -m "not slow"

lint-imports:
	.venv/bin/lint-imports

bench:
	$(PY) -m pytest benchmarks --benchmark-columns=min,median,max,ops --benchmark-sort=name

bench-tables:
	$(PY) benchmarks/peer_table.py
	$(PY) benchmarks/positions_report.py

positions:
	$(PY) scripts/make_benchmark_positions.py

# Side by side with wolges and MAGPIE, calls strictly alternating, thread CPU per call (benchmarks/README.md):
#   WOLGES_BIN=... MAGPIE_BIN=... MAGPIE_DATA=... make bench-peers [BENCH_PEERS_ARGS='--reps 7']
# A peer whose variable is unset is skipped.
bench-peers:
	$(PY) benchmarks/bench_peers.py $(BENCH_PEERS_ARGS)
