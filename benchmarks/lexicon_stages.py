"""Where the CPU time of a lexicon build goes: the steps of ``lexicon_tools build``, timed in one process.

Run: ``python benchmarks/lexicon_stages.py WORDLIST`` (e.g. ``/work/shared/golden/words.txt``),
with the caches warm (run ``python -m lexicon_tools build`` once: it compiles the builder's kernels
ahead of time, ``lexicon_tools._build_aot``). ``GSE_AOT=0`` times the Numba JIT kernels instead.
Prints one table row per step (``time.process_time`` seconds); figures in benchmarks/README.md
"Lexicon build".
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's lexicon_tools
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as lexicon_tools.cli does
T0 = time.process_time()
marks = []


def mark(name):
    marks.append((name, time.process_time()))


import numpy as np  # noqa: E402

mark("import numpy")
import marisa_trie  # noqa: E402

from lexicon_tools import bundle as B, kwg as K  # noqa: E402
from lexicon_tools._build_aot import kernels  # noqa: E402
from lexicon_tools.alphabet import german  # noqa: E402
from lexicon_tools.normalize import normalize_path  # noqa: E402

mark("import marisa-trie, lexicon_tools")
k = kernels()
k.word_matrix(np.zeros(1, np.uint8), np.ones(1, np.int32), 17, 1)
mark("kernels: " + ("the ahead-of-time module" if k.aot else "import Numba + its runtime (JIT, cached)"))
res = normalize_path(sys.argv[1], keep_rejects=False)
mark("read + normalise")
words = B._sorted_unique(res.words)
a = german()
rows = K._word_rows(words, a)
mark("encode + sort words")
g = K._build_rows(rows, a, K.MAX_NODES)
mark("graph (DAWG + GADDAG + layout)")
K.validate_kwg(g, a, language=False)
mark("structural check")
K._verify_rows(g, rows, a, B._non_word_samples(words, a))
mark("verification")
t = marisa_trie.Trie(words).tobytes()
mark("marisa-trie")
prev = T0
for n, t in marks:
    print(f"| {n} | {t - prev:.3f} |")
    prev = t
print("| total in process |", round(prev - T0, 3), "|")
