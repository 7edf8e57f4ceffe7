"""``simultan repair``: salvage every intact entry of a damaged journal.

A journal the event cannot be rebuilt from (a damaged line, an entry out of
order: :class:`~engine.director.journal.JournalError`) blocks every command.
:func:`plan_repair` reads it line by line and works out the journal to keep:

1. every line whose checksum verifies, by its ``seq``; a line that fails it is
   mended when one changed byte explains the damage (:func:`mend_line`: a
   byte changed anywhere, a newline replaced by another byte or put in the
   middle of a line) and the mended line verifies - CRC-32 makes a wrong
   mend that verifies by chance a one-in-four-billion event per candidate;
2. entries it cannot read there are taken from ``journal.ack`` (the last
   acknowledged entry, whole: :func:`~engine.director.journal.write_ack`) and
   from the copies in ``backup/``
   (:func:`~engine.director.journal.backup_journal`, one per closed round); a
   cut-short last line either of them has was acknowledged, so it is damage,
   not an interrupted write;
3. the entries are replayed in order; one that no longer fits the event (it
   follows a lost entry it depends on, e.g. a submission for a round whose
   ``close`` is lost) is left out, and so is an ``undo`` whose action is lost;
   the rest are numbered 1, 2, … again (``undo`` references follow).

Nothing is written by :func:`plan_repair`; :func:`apply_repair` (``repair
--apply``) keeps the old journal as ``journal.damaged-YYYYMMDD-HHMMSS`` and
writes the salvaged one atomically, under the event's exclusive lock.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from .event import describe_action, lexicon_id, replay
from .journal import (ACK_FILE, BACKUP_DIR, JOURNAL_FILE, JournalError, atomic_write, backup_journal,
                      backup_records, encode_record, event_lock, event_remains, is_cut_short, read_ack, scan_lines,
                      readable_ack_seq, try_decode, write_ack)

__all__ = ["RepairPlan", "plan_repair", "apply_repair"]


@dataclass
class RepairPlan:
    """What ``repair`` would do.

    Attributes:
        directory: the event directory.
        records: the salvaged journal, renumbered (``seq`` 1, 2, …).
        lost: ``[(where, why), ...]`` for every line or entry not kept
            (``where`` names the line of the journal or the entry number).
        recovered: entry numbers taken from a backup copy.
        from_ack: entry numbers taken from ``journal.ack`` (the last acknowledged entry).
        mended: ``[(line, seq), ...]``: damaged lines kept because one changed byte explained the damage.
        torn: bytes of an interrupted last write (never acknowledged; moved to ``journal.torn``).
        intact: True when the journal needs no repair.
        data: the journal's bytes the plan was made from.
    """

    directory: Path
    records: list = field(default_factory=list)
    lost: list = field(default_factory=list)
    recovered: list = field(default_factory=list)
    from_ack: list = field(default_factory=list)
    ack_damaged: bool = False
    missing: bool = False
    """The journal file itself was gone (rebuilt from journal.ack and backup/)."""
    mended: list = field(default_factory=list)
    torn: bytes = b""
    intact: bool = False
    data: bytes = b""

    def lines(self) -> list[str]:
        """The report for people, in this run's language (:func:`engine.lang.tr`; ``lost``,
        ``mended`` and ``recovered`` keep their English data)."""
        from engine.lang import tr

        if self.intact:
            return [tr("{path}: every entry verifies; nothing to repair", path=self.directory / JOURNAL_FILE)]
        out = []
        for where, why in self.lost:
            out.append(tr("lost: {where}: {why}", where=tr(where), why=tr(why)))
        for line, seq in self.mended:
            out.append(tr("mended: line {line} (one damaged byte): entry {seq}", line=line, seq=seq))
        for seq in self.from_ack:
            out.append(tr("recovered from {file} (the last acknowledged entry): entry {seq}", file=ACK_FILE, seq=seq))
        if self.ack_damaged:
            out.append(tr("{file} is damaged: written again for the last entry kept", file=ACK_FILE))
        for seq in self.recovered:
            out.append(tr("recovered from {dir}/: entry {seq}", dir=BACKUP_DIR, seq=seq))
        if self.torn:
            out.append(tr("interrupted write at the end ({n} bytes, never acknowledged): moved to journal.torn",
                          n=len(self.torn)))
        upto = tr(describe_action(self.records[-1])) if len(self.records) > 1 else tr("its creation")
        out.append(tr("kept: {n} entries (the event up to {what})", n=len(self.records), what=upto))
        return out


def _preview(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace")
    return text if len(text) <= 80 else text[:77] + "..."


MEND_MAX_BYTES = 4096
"""Longest line :func:`mend_line` tries every one-byte change of (about 1 s for 1,000 bytes)."""


def mend_line(raw: bytes) -> dict | None:
    """The record of a damaged journal line when one changed byte explains the damage, else ``None``.

    Tries, in order: the line as it is; a complete object followed by one other byte (the line's
    newline was replaced); every single-byte change (lines up to :data:`MEND_MAX_BYTES`). A
    candidate counts only when it parses and its CRC-32 verifies.

    Args:
        raw: the line's bytes without a newline (a newline put into a line splits it: join the
            two parts with a placeholder byte, the change is then found at the join).
    """
    rec = try_decode(raw)
    if rec is not None:
        return rec
    if len(raw) > 1 and not is_cut_short(raw[:-1]):
        rec = try_decode(raw[:-1])
        if rec is not None:
            return rec
    if len(raw) > MEND_MAX_BYTES:
        return None
    buf = bytearray(raw)
    for pos, old in enumerate(raw):
        for b in range(256):
            if b == old or b == 10:
                continue
            buf[pos] = b
            try:
                obj = json.loads(buf)
            except ValueError:
                continue
            if isinstance(obj, dict) and (rec := try_decode(bytes(buf))) is not None:
                return rec
        buf[pos] = old
    return None


def plan_repair(directory: str | Path, lexicon=None) -> RepairPlan:
    """Work out the salvaged journal of ``directory`` (nothing is written).

    Args:
        directory: the event directory.
        lexicon: the event's lexicon (entries are replayed to check that they fit);
            default: the one the ``new`` entry names.

    Raises:
        JournalError: no journal, its first entry (``new``) is lost with no copy
            of it, or ``lexicon`` is not the event's.
    """
    directory = Path(directory)
    plan = RepairPlan(directory)
    try:
        data = (directory / JOURNAL_FILE).read_bytes()
    except FileNotFoundError:
        if not event_remains(directory):
            raise JournalError(f"{directory}: not an event directory (no {JOURNAL_FILE})") from None
        data = b""  # report-attack26m F2: a deleted journal is rebuilt from journal.ack and backup/, as an empty one
        plan.missing = True
    plan.data = data
    lines = scan_lines(data)
    ack_seq = None
    try:
        ack = read_ack(directory)
    except JournalError:  # a damaged ack: a cut-short last line cannot be called an interrupted write
        ack = (len(lines), None, None)
        plan.ack_damaged = True  # written again by apply_repair (report-attack26l: every command refused it,
        ack_seq = readable_ack_seq(directory)  # and repair said "nothing to repair")
    backups = backup_records(directory)

    def torn(i: int, raw: bytes, terminated: bool) -> bool:  # line i (from 1): an interrupted write
        return (not terminated and i == len(lines) and is_cut_short(raw) and (ack is None or i > ack[0])
                and i not in backups)

    by_seq: dict[int, dict] = {}
    damaged = False
    bad_lines: set[int] = set()
    mended: dict[int, dict] = {}  # line number -> the record one changed byte explains
    joined: set[int] = set()  # second halves of lines split by a byte that became a newline
    for i, (raw, rec, terminated) in enumerate(lines):
        if rec is not None or i + 1 in joined:
            continue
        if torn(i + 1, raw, terminated):
            continue  # an interrupted write
        if not terminated and ack is not None and ack[1] is not None and i + 1 == ack[0] and ack[1].startswith(raw):
            continue  # the acknowledged last entry cut short: journal.ack has it whole
        rec = mend_line(raw)
        if rec is None and i + 1 < len(lines) and lines[i + 1][1] is None:  # a byte became a newline?
            both = raw + b"\0" + lines[i + 1][0]
            rec = mend_line(both) if len(both) <= MEND_MAX_BYTES else None
            if rec is not None:
                joined.add(i + 2)
        if rec is not None:
            mended[i + 1] = rec
    for i, (raw, rec, terminated) in enumerate(lines, start=1):
        if i in joined:
            continue  # the second half of a line mended by joining
        if rec is None and i in mended:
            rec = mended[i]
            damaged = True
            plan.mended.append((i, rec.get("seq")))
        if rec is None:
            if torn(i, raw, terminated):
                plan.torn = raw
            else:
                damaged = True
                bad_lines.add(i)
                plan.lost.append((f"line {i}", f"damaged ({_preview(raw)!r})"))
            continue
        seq = rec.get("seq")
        if not isinstance(seq, int) or seq in by_seq:
            damaged = True
            plan.lost.append((f"line {i}", f"entry number {seq!r} out of place"))
            continue
        if seq != i:
            damaged = True
        by_seq[seq] = rec
    same = lambda a, b: {k: v for k, v in a.items() if k not in ("seq", "crc")} == \
        {k: v for k, v in b.items() if k not in ("seq", "crc")}  # noqa: E731
    # the ack's entry, unless the journal holds it under another number (a repair renumbered, and was killed
    # before it wrote the new ack)
    if ack is not None and ack[2] is not None and ack[0] not in by_seq:
        damaged = True
        if any(same(ack[2], r) for r in by_seq.values()):
            plan.ack_damaged = True  # it names the entry by its number before the renumbering: written again
        else:
            by_seq[ack[0]] = ack[2]
            plan.from_ack.append(ack[0])
    for seq in sorted(backups):
        if seq not in by_seq:
            by_seq[seq] = backups[seq]
            plan.recovered.append(seq)
            damaged = True
    plan.lost = [(w, y) for w, y in plan.lost if not (w.startswith("line ") and int(w[5:]) in bad_lines
                                                       and int(w[5:]) in plan.recovered + plan.from_ack)]
    if 1 not in by_seq or by_seq[1].get("type") != "new":
        raise JournalError(f"{directory / JOURNAL_FILE}: the first entry (`new`: the event's settings) is damaged "
                           f"and no copy in {BACKUP_DIR}/ has it; the event cannot be salvaged")
    settings = by_seq[1].get("settings") or {}
    if lexicon is None:
        from .store import load_event_lexicon

        lexicon = load_event_lexicon(settings.get("lexicon"))
    want = settings.get("lexicon_id")
    if want != lexicon_id(lexicon):
        raise JournalError(f"the lexicon given is not the one this event was created with (fingerprint "
                           f"{str(want)[:12]}); repair needs the event's lexicon (--lexicon)")
    if plan.ack_damaged:
        damaged = True
        for seq in range(max(by_seq) + 1, (ack_seq or 0) + 1):  # named acknowledged, and in no copy
            plan.lost.append((f"entry {seq}", f"acknowledged ({ACK_FILE}) but not in the journal or any copy"))
    if not damaged and not plan.torn and sorted(by_seq) == list(range(1, len(by_seq) + 1)):
        plan.records = [by_seq[s] for s in sorted(by_seq)]
        try:
            replay(plan.records, lexicon)
            plan.intact = True
            return plan
        except JournalError:
            pass
    # the lines numbered by their seq but not found: lost
    top = max(by_seq)
    for seq in range(1, top + 1):
        if seq not in by_seq and seq not in bad_lines:
            plan.lost.append((f"entry {seq}", "not readable in the journal or any copy"))
    kept: list[dict] = [by_seq[1]]
    renum: dict[int, int] = {1: 1}
    ev = replay(kept, lexicon)
    for seq in sorted(by_seq)[1:]:
        rec = dict(by_seq[seq])
        rec["seq"] = len(kept) + 1
        if rec.get("type") == "undo":
            if rec.get("undoes") not in renum:
                plan.lost.append((f"entry {seq}", f"undo of entry {rec.get('undoes')}, which is lost"))
                continue
            rec["undoes"] = renum[rec["undoes"]]
            try:
                ev = replay(kept + [rec], lexicon)
            except JournalError as exc:
                plan.lost.append((f"entry {seq}", f"{rec.get('what', 'undo')}: does not fit the event ({exc})"))
                continue
        else:
            try:
                ev.apply(rec)
            except JournalError as exc:
                plan.lost.append((f"entry {seq}", f"{describe_action(rec)}: does not fit the event ({exc})"))
                ev = replay(kept, lexicon)  # a failed apply may have changed the event half-way
                continue
        kept.append(rec)
        renum[seq] = rec["seq"]
    plan.records = kept
    return plan


def apply_repair(plan: RepairPlan) -> Path | None:
    """Write the salvaged journal of ``plan`` (under the exclusive lock).

    The old journal is kept as ``journal.damaged-YYYYMMDD-HHMMSS``; the torn
    bytes go to ``journal.torn``; ``journal.ack`` names the new last entry;
    ``backup/`` (numbered like the old journal) is
    renamed ``backup.damaged-YYYYMMDD-HHMMSS`` and a copy of the salvaged journal
    starts the new ``backup/``.

    Returns:
        the kept copy of the old journal (``None`` when the journal was intact).

    Raises:
        JournalError: the journal changed since ``plan`` was made (run repair again).
        OSError: a file could not be written (the journal is then unchanged).
    """
    if plan.intact:
        return None
    directory = plan.directory
    path = directory / JOURNAL_FILE
    stamp = time.strftime('%Y%m%d-%H%M%S')
    if plan.missing:  # the lock needs the journal file: an empty one, as the plan read it
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            os.close(fd)
        except FileExistsError:
            pass  # made meanwhile: compared with the plan below
    with event_lock(directory, exclusive=True):
        data = path.read_bytes()
        if data != plan.data:
            raise JournalError(f"{path} changed since the repair was planned; run repair again")
        keep = directory / f"journal.damaged-{stamp}"
        atomic_write(keep, data)
        if plan.torn:
            with open(directory / "journal.torn", "ab") as f:
                f.write(f"# {time.strftime('%Y-%m-%d %H:%M:%S')} removed by repair\n".encode() + plan.torn + b"\n")
                f.flush()
                os.fsync(f.fileno())
        # the old ack stays until the new journal is in place (report-attack26l: a kill between removing it and
        # writing the journal made its entry look like an interrupted write, and it was dropped); a directory
        # in its place is moved aside, so the new one can be written
        ack_path = directory / ACK_FILE
        if ack_path.is_dir() and not ack_path.is_symlink():
            ack_path.rename(directory / f"{ACK_FILE}.damaged-{stamp}")
        lines = [encode_record(r) for r in plan.records]
        atomic_write(path, b"".join(lines))
        write_ack(directory, lines[-1])
        if (directory / BACKUP_DIR).is_dir():
            (directory / BACKUP_DIR).rename(directory / f"{BACKUP_DIR}.damaged-{stamp}")
        closes = [r for r in plan.records if r.get("type") == "close"]
        backup_journal(directory, int(closes[-1]["round"]) if closes else 0)
    return keep
