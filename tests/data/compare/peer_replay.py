"""Test peer that replays stored outputs: ``peer_replay.py DIR [ID]``.

Prints DIR/ID.txt (or .json / .tsv). Without ID it reads the CGP from stdin and
finds the id in positions.tsv beside this script. Exits 4 when there is no output.
"""
import sys
from pathlib import Path

here = Path(__file__).parent
folder = Path(sys.argv[1])
if len(sys.argv) > 2:
    pid = sys.argv[2]
else:
    cgp = sys.stdin.readline().strip()
    ids = {c.strip(): i for i, c in (ln.split("\t") for ln in (here / "positions.tsv").read_text("utf-8").splitlines())}
    pid = ids.get(cgp, "?")
for ext in (".txt", ".json", ".tsv"):
    f = folder / (pid + ext)
    if f.is_file():
        sys.stdout.write(f.read_text("utf-8"))
        sys.exit(0)
print(f"no stored output for {pid}", file=sys.stderr)
sys.exit(4)
