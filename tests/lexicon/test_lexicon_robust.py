"""Word lists of any size and bad word lists (issue 16 "Lists of any size" / "Bad input", issue 17 items 6, 9).

Streaming reader (memory bounded by the distinct words, not by the file), the KWG
node limit, clean refusals naming the line, and builds that are killed or fail
leaving nothing behind (and never hiding the old bundle).
"""

from __future__ import annotations

import lzma
import os
import subprocess
import sys
import textwrap
import tracemalloc
from pathlib import Path

import pytest

from lexicon_tools import cli
from lexicon_tools.bundle import Lexicon, build_bundle, clean_stale_builds
from lexicon_tools.kwg import MAX_NODES, GraphTooLargeError, build_kwg
from lexicon_tools.normalize import WordListError, normalize_lines, read_lines

ROOT = Path(__file__).resolve().parents[2]
WORDS = ["AAL", "ABEND", "HAUS", "HAUSE", "HAUST", "ÜBER", "STRASSE", "ZUG"]


def _word(i: int) -> str:
    """A distinct pseudo-word for every i (letters only, 4..9 letters)."""
    letters = "ABDEGHIKLMNORSTUZ"
    out = []
    i += 17 ** 3
    while i:
        i, r = divmod(i, 17)
        out.append(letters[r])
    return "".join(out)


def _peak(path: Path) -> tuple[int, int]:
    tracemalloc.start()
    try:
        res = normalize_lines(read_lines(path), keep_rejects=False)
        return tracemalloc.get_traced_memory()[1], len(res.words)
    finally:
        tracemalloc.stop()


def test_memory_is_bounded_by_the_words_not_by_the_file(tmp_path):
    """Issue 17 item 6: the same 20,000 words (plus junk lines) 3 times (2 MB) and 15 times over (10 MB)."""
    block = "".join(f"{_word(i).lower()}\nBaden-Baden {i}\n" for i in range(20_000))
    small, large = tmp_path / "small.txt", tmp_path / "large.txt"
    small.write_text(block * 3, encoding="utf-8")
    large.write_text(block * 15, encoding="utf-8")
    p_small, n_small = _peak(small)
    p_large, n_large = _peak(large)
    assert n_small == n_large == 20_000
    # 5x the input, about the same memory (the words, one chunk); and far less than the file
    assert p_large < 1.5 * p_small, (p_small, p_large)
    assert p_large < large.stat().st_size, (p_large, large.stat().st_size)


def test_stream_keeps_line_numbers_across_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr("lexicon_tools.normalize._CHUNK", 7)  # chunks end mid-line and mid-character
    p = tmp_path / "w.txt"
    p.write_text("Aal\n# c\nÜber\n\nschließen\r\nÖl", encoding="utf-8")
    warned = []
    assert list(read_lines(p, on_warning=warned.append)) == [(1, "Aal"), (3, "Über"), (5, "schließen"),
                                                            (6, "Öl")]
    assert len(warned) == 1 and "last line (6: 'Öl') has no line end" in warned[0]
    p.write_bytes("Aal\nÜber\nSchlüß".encode("latin-1"))
    with pytest.raises(WordListError, match="not valid UTF-8 .*line 2.*--encoding latin-1"):
        list(read_lines(p))


def test_progress_reports_the_bytes_read(tmp_path, monkeypatch):
    monkeypatch.setattr("lexicon_tools.normalize._CHUNK", 1000)
    p = tmp_path / "w.txt"
    p.write_text("".join(f"{_word(i)}\n" for i in range(1000)), encoding="utf-8")
    seen = []
    n = sum(1 for _ in read_lines(p, progress=lambda done, total: seen.append((done, total))))
    assert n == 1000
    size = p.stat().st_size
    assert seen[-1] == (size, size) and len(seen) == -(-size // 1000)
    assert all(a[0] < b[0] for a, b in zip(seen, seen[1:]))


def run(argv, capsys):
    code = cli.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("content,fragment", [
    ("Baden-Baden\nU.S.A.\n42\n".encode("utf-8"),
     "no valid word among 3 entries (all rejected: hyphen 1, dot 1, digit 1); first: line 1 'Baden-Baden'"),
    ("Aal\nÜber\n".encode("latin-1"), "not valid UTF-8 (byte 0xdc on line 2)"),
    ("Aal\nHaus\nÜ".encode("utf-8")[:-1], "cut off mid-line: line 3 ends inside a character"),
    (lzma.compress("Aal\nHaus\n".encode("utf-8") * 500)[:-30], "the xz file ends early"),
])
def test_bad_lists_exit_2_naming_cause_and_line_and_leave_no_bundle(tmp_path, capsys, content, fragment):
    src = tmp_path / "list.txt"
    src.write_bytes(content)
    out = tmp_path / "out.lex"
    code, _o, err = run(["build", str(src), "-o", str(out), "-q"], capsys)
    assert code == 2, err
    assert err.startswith("error: ") and fragment in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["list.txt"]


def test_graph_too_large_is_refused_before_writing(tmp_path):
    """Issue 16: past the node limit the build stops with the real cause, also with verify=False."""
    words = [_word(i) for i in range(2000)]
    nodes = int(build_kwg(words).shape[0])
    for verify in (True, False):
        with pytest.raises(GraphTooLargeError,
                           match=rf"needs {nodes:,} nodes, the KWG format holds {nodes - 1:,}") as exc:
            build_bundle(words, tmp_path / "big.lex", max_nodes=nodes - 1, verify=verify)
        assert exc.value.nodes == nodes
        assert list(tmp_path.iterdir()) == []
    assert build_bundle(words, tmp_path / "big.lex", max_nodes=nodes).word_count == 2000


def test_cli_list_too_large_for_a_kwg_exits_2_and_writes_nothing(tmp_path, capsys, monkeypatch):
    """Issue 16 "Bad input": ``build --format kwg`` of a list past the KWG's node limit (lowered here so a
    small list reaches it) says how many nodes it needs, what the format holds and what to use instead."""
    import lexicon_tools.kwg as kwg_module

    words = [_word(i) for i in range(2000)]
    nodes = int(build_kwg(words).shape[0])
    src = tmp_path / "list.txt"
    src.write_text("\n".join(words) + "\n", encoding="utf-8")
    monkeypatch.setattr(kwg_module, "MAX_NODES", nodes - 1)
    code, _o, err = run(["build", str(src), "-o", str(tmp_path / "big.lex"), "-q", "--format", "kwg"], capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"error: the graph needs {nodes:,} nodes, the KWG format holds {nodes - 1:,}")
    assert "use --format wide" in err and "nothing was written" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["list.txt"]
    code, out, _ = run(["build", str(src), "-o", str(tmp_path / "big.lex"), "-q"], capsys)  # auto: the wide variant
    assert code == 0 and "lexicon.kwg64" in out and Lexicon.load(tmp_path / "big.lex").word_count == 2000


def test_the_real_limit_and_its_message():
    assert MAX_NODES == 4_194_303 == (1 << 22) - 1
    msg = str(GraphTooLargeError(5_000_000, MAX_NODES))
    assert "5,000,000 nodes, the KWG format holds 4,194,303" in msg and "nothing was written" in msg


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_build_directories_are_cleaned_and_live_ones_kept(tmp_path):
    out = tmp_path / "w.lex"
    dead = _dead_pid()
    stale = tmp_path / f".w.lex.build-{dead}-abc123"
    stale.mkdir()
    (stale / "lexicon.kwg").write_bytes(b"\0" * 64)
    legacy = tmp_path / ".w.lex.k2j4h5g6"  # an old-style temp dir, untouched for two hours
    legacy.mkdir()
    os.utime(legacy, (legacy.stat().st_mtime - 7200,) * 2)
    live = tmp_path / f".w.lex.build-{os.getpid()}-zzz"  # a build still running (this process)
    live.mkdir()
    other = tmp_path / f".other.lex.build-{dead}-abc123"  # another bundle's: not ours to touch
    other.mkdir()
    build_bundle(WORDS, out, verify=True)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(["w.lex", live.name, other.name])
    assert (out / "meta.json").is_file() and oct(out.stat().st_mode & 0o777) != "0o700"


def test_kill_between_the_renames_never_hides_the_old_bundle(tmp_path):
    """Issue 17 item 9: force the two-rename path, kill -9 between the renames, then build again."""
    out = tmp_path / "w.lex"
    build_bundle(["ALT", "ALTE"], out)
    script = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {str(ROOT)!r})
        import lexicon_tools.bundle as b
        b._exchange = lambda a, c: False          # a file system without RENAME_EXCHANGE
        real = os.replace
        calls = []
        def replace(a, c):
            calls.append(a)
            real(a, c)
            if len(calls) == 1:                    # old bundle moved aside, new one not yet in place
                os.kill(os.getpid(), signal.SIGKILL)
        b.os.replace = replace
        b.build_bundle(["NEU", "NEUE"], {str(out)!r})
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == -9, r.stderr
    assert not out.exists()  # the window the issue describes ...
    restored = clean_stale_builds(out)  # ... closed by the next run (build or clean)
    assert out in restored
    assert sorted(Lexicon.load(out).words()) == ["ALT", "ALTE"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.lex"]
    build_bundle(["NEU", "NEUE"], out)  # the exchange path: old replaced in one step
    assert sorted(Lexicon.load(out).words()) == ["NEU", "NEUE"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.lex"]


def test_killed_build_leaves_a_temp_dir_the_next_build_removes(tmp_path):
    out = tmp_path / "w.lex"
    script = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {str(ROOT)!r})
        import lexicon_tools.bundle as b
        b._fsync_path = lambda p: os.kill(os.getpid(), signal.SIGKILL)   # killed while writing
        b.build_bundle(["AAL", "ABEND"], {str(out)!r})
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == -9, r.stderr
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(".w.lex.build-") and not out.exists()
    build_bundle(["AAL", "ABEND"], out)
    assert [p.name for p in tmp_path.iterdir()] == ["w.lex"]


def test_pattern_into_a_closed_pipe_is_quiet(tmp_path):
    """Issue 17 item 8: `lexicon-tools pattern '*' | head -1` exits 0 or 141 with no message."""
    lex = tmp_path / "w.lex"
    build_bundle([_word(i) for i in range(30_000)], lex)
    r = subprocess.run(f"{sys.executable} -m lexicon_tools pattern '*' --lexicon {lex} | head -1; "
                       "echo \"rc=${PIPESTATUS[0]}\"", shell=True, executable="/bin/bash",
                       capture_output=True, text=True, cwd=ROOT)
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and lines[1] in ("rc=0", "rc=141"), r.stdout
    assert r.stderr == ""


@pytest.mark.parametrize("encoding", [None, "latin-1", "utf-16"])
def test_random_bytes_read_or_raise_wordlisterror(tmp_path, encoding):
    """Any file either reads (entries, line numbers increasing) or raises WordListError, nothing else."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    import lexicon_tools.normalize as n

    piece = st.sampled_from([b"Aal\n", b"\xc3\xbc", b"\xc3", b"\r\n", b"\r", b"\x00", b"\xfd7zXZ\x00", b"\x1f\x8b",
                             b"\xff\xfe", b"\xef\xbb\xbf", b"#x\n", b" ", b"Stra\xdfe\n", b"\n"])

    @settings(max_examples=150, deadline=None)
    @given(st.lists(piece, max_size=40), st.integers(1, 9))
    def check(parts, chunk):
        p = tmp_path / "w.txt"
        p.write_bytes(b"".join(parts))
        old = n._CHUNK
        n._CHUNK = chunk
        try:
            got = list(read_lines(p, encoding))
        except WordListError as exc:
            assert str(exc).startswith("word list ")
            return
        finally:
            n._CHUNK = old
        lines = [ln for ln, _e in got]
        assert lines == sorted(set(lines)) and all(e == e.strip() and e and e[0] != "#" for _l, e in got)

    check()
