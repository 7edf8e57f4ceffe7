"""Test peer that hangs: sleeps far past any test timeout before printing anything."""
import time

time.sleep(60)
print("B9 .Q 31")
