"""MAGPIE's command shell from Python: a private run folder and one ``magpie`` process per command batch.

MAGPIE reads ``./data`` and ``./settings.txt`` at start-up. Settings sent as a first ``set`` line on
stdin race with the lines after it (MAGPIE starts in async mode, and its input thread answers
"unrecognized async command" to a ``cgp`` line that arrives while the ``set`` still runs), so the
settings, sync mode included, go into ``settings.txt`` of a folder of our own instead, beside a
``data`` link to the peer's data folder (/tmp/peers/HOWTO.md: ``lexica/RDDEF.kwg`` is our default
lexicon's KWG, ``RDDEF.klv2`` our leave table). MAGPIE's code is not part of this repository.
"""

from __future__ import annotations

import os
import resource
import subprocess
import tempfile

DEFAULT_BINARY = "/tmp/peers/MAGPIE/bin/magpie"
DEFAULT_DATA = "/tmp/peers/magpie-gse-data"


def run_dir(data: str = DEFAULT_DATA, threads: int = 1, lex: str = "RDDEF", leaves: str = "RDDEF") -> str:
    """A new folder with ``data`` -> ``data`` and the settings (sync mode, no saving).

    ``lex`` and ``leaves`` name ``data/lexica/<lex>.kwg`` and ``data/lexica/<leaves>.klv2``
    (RDDEF: the KWG and leave table /tmp/peers/HOWTO.md put there).
    """
    d = tempfile.mkdtemp(prefix="magpie-run-")
    os.symlink(os.path.abspath(data), os.path.join(d, "data"))
    with open(os.path.join(d, "settings.txt"), "w", encoding="utf-8") as f:
        f.write(f"set -lex {lex} -ld german -leaves {leaves} -threads {threads} -wmp false -savesettings false "
                f"-mode sync -ttfraction 0.01\n")
    return d


def run(binary: str, folder: str, commands: list[str], timeout: float) -> tuple[str, float, float]:
    """Run ``commands`` (one per line) in one MAGPIE process: ``(stdout, CPU seconds, wall seconds)``.

    CPU = the child's user + system time (``resource.RUSAGE_CHILDREN``; call from one thread at a time).
    Bytes that are not UTF-8 (MAGPIE's progress output can cut a letter in two) are replaced.
    """
    import time

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([binary], input="".join(c + "\n" for c in commands), capture_output=True, text=True, errors="replace",
                       cwd=folder, timeout=timeout)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0 or "(error" in p.stderr:
        raise RuntimeError(f"MAGPIE failed (exit {p.returncode}): {p.stderr[-400:]!r}")
    return p.stdout, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall
