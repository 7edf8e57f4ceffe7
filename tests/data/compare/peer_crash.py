"""Test peer that crashes: prints half a move list, an error on stderr, exits 3."""
import sys

print("B9 .Q 31")
print("Traceback (most recent call last): peer blew up", file=sys.stderr)
print("RuntimeError: out of tiles", file=sys.stderr)
sys.exit(3)
