"""Where the CPU time of a lexicon build goes: the steps of ``lexicon_tools build``, timed in one process.

Run: ``python benchmarks/lexicon_stages.py WORDLIST`` (e.g. ``/work/shared/golden/words.txt``),
with the Numba cache warm (run it twice). Prints one table row per step
(``time.process_time`` seconds); figures in benchmarks/README.md "Lexicon build".
"""

import time, sys
T0 = time.process_time()
marks = []
def mark(name): marks.append((name, time.process_time()))
import numpy as np; mark("import numpy")
import numba; mark("import numba")
import marisa_trie
from lexicon_tools import kwg as K, bundle as B, _kwg_kernels as KK
from lexicon_tools.normalize import normalize_path
from lexicon_tools.alphabet import german; mark("import marisa-trie, lexicon_tools")
KK.word_matrix(np.zeros(1, np.uint8), np.ones(1, np.int32), 17, 1); mark("numba runtime set-up (first cached kernel)")
res = normalize_path(sys.argv[1], keep_rejects=False); mark("read + normalise")
words = B._sorted_unique(res.words); a = german()
rows = K._word_rows(words, a); mark("encode + sort words")
g = K._build_rows(rows, a, K.MAX_NODES); mark("graph (DAWG + GADDAG + layout)")
K.validate_kwg(g, a, language=False); mark("structural check")
K._verify_rows(g, rows, a, B._non_word_samples(words, a)); mark("verification")
t = marisa_trie.Trie(words).tobytes(); mark("marisa-trie")
prev = T0
for n, t in marks:
    print(f"| {n} | {t - prev:.3f} |"); prev = t
print("| total in process |", round(prev - T0, 3), "|")
