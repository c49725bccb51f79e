"""Block assembly for read path A: records in source order under a character budget.

Pure functions: which records, in which order, how many fit. No database here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = [
    "EVIDENCE_HEADER",
    "Evidence",
    "EvidenceRecord",
    "render",
    "render_selected",
    "same_session",
    "turn_passage",
]

EVIDENCE_HEADER = "Here is a list of records from memory (a higher number is newer):\n"


@dataclass(frozen=True)
class EvidenceRecord:
    pos: int
    text: str
    id: str | None = None
    speaker: str | None = None
    observed_at: str | None = None
    # Relative time in the text resolved at ingest: "start:end=2023-05-07" (character
    # offsets of the phrase, then the day or "first..last" days it means).
    times: tuple[str, ...] = ()

    def time_entries(self) -> list[tuple[int, int, str]]:
        """``times`` read back: (phrase start, phrase end, when) for each well-formed one."""
        out = []
        for entry in self.times:
            span, _, when = entry.partition("=")
            start, _, end = span.partition(":")
            if start.isdigit() and end.isdigit() and when:
                out.append((int(start), int(end), when))
        return out

    def resolved_times(self) -> list[str]:
        """``yesterday = 2023-05-07`` for each relative time phrase of the text."""
        return [
            f"{self.text[start:end]} = {when}"
            for start, end, when in self.time_entries()
            if self.text[start:end]
        ]

    def line(self) -> str:
        """``pos. text``, with the date the record was said when known and the days its
        relative time phrases mean (temporal questions are answered from them)."""
        if self.observed_at:
            dated = "; ".join([self.observed_at[:10], *self.resolved_times()])
            return f"{self.pos}. ({dated}) {self.text}\n"
        return f"{self.pos}. {self.text}\n"


def same_session(a: str | None, b: str | None) -> bool:
    """Whether two records were said in one sitting: observed in the same minute (a
    conversation's session carries one date), or neither dated."""
    return (a or "")[:16] == (b or "")[:16]


def turn_passage(text: str, speaker: str | None, before: tuple[str, str | None] | None) -> str:
    """What a turn is embedded as for evidence: ``speaker: text`` after the turn before it
    in the same session, ``before`` = (text, speaker). A reply ("a sunset!") means little
    without the question it answers; measured on LoCoMo's tuning conversations, this
    ranked gold turns better than the turn alone (BENCHMARKS.md)."""
    line = f"{speaker}: {text}" if speaker else text
    if before is None:
        return line
    prev_text, prev_speaker = before
    return (f"{prev_speaker}: {prev_text}" if prev_speaker else prev_text) + "\n" + line


@dataclass
class Evidence:
    """What ``Memory.evidence`` returns. Programs rely on these fields; keep them stable.

    - ``text``: the rendered evidence (header + one numbered record per line);
    - ``records``: the records in ``text``, in source order;
    - ``anchors``: entity names found in the question;
    - ``keys``: the selected keys (``subject / relation``), deduplicated;
    - ``fallback``: True when nothing was selected and the whole history was used;
    - ``stats``: ``ms``, the call's time, and ``embed_ms``, the part spent embedding the
      question when turns were ranked by meaning.
    """

    text: str
    records: list[EvidenceRecord]
    anchors: list[str]
    keys: list[str]
    fallback: bool
    control: str = "cmc"
    hops: int = 5
    truncated: bool = False
    stats: dict[str, float] = field(default_factory=dict)

    @property
    def chars(self) -> int:
        return len(self.text)


def render(
    records: Iterable[EvidenceRecord], budget_chars: int, header: str = EVIDENCE_HEADER
) -> tuple[str, list[EvidenceRecord], bool]:
    """Dedupe by position, sort in source order, keep the newest whole records that fit.

    The budget counts the header. Returns (text, kept records, truncated?).
    """
    return render_selected(records, (), budget_chars, header)


def render_selected(
    keyed: Iterable[EvidenceRecord],
    ranked: Iterable[EvidenceRecord],
    budget_chars: int,
    header: str = EVIDENCE_HEADER,
) -> tuple[str, list[EvidenceRecord], bool]:
    """The records of current facts first (the newest that fit, a contiguous suffix),
    then ranked raw records, best first, each one that still fits; in source order.

    Returns (text, kept records, truncated?).
    """
    by_pos: dict[int, EvidenceRecord] = {}
    for r in keyed:
        by_pos.setdefault(r.pos, r)
    room = budget_chars - len(header)
    kept: dict[int, EvidenceRecord] = {}
    for pos in sorted(by_pos, reverse=True):
        size = len(by_pos[pos].line())
        if size > room:
            break
        kept[pos] = by_pos[pos]
        room -= size
    total = len(by_pos)
    for r in ranked:
        if r.pos in by_pos or r.pos in kept:
            continue
        total += 1
        size = len(r.line())
        if size <= room:
            kept[r.pos] = r
            room -= size
    ordered = [kept[p] for p in sorted(kept)]
    return header + "".join(r.line() for r in ordered), ordered, len(ordered) < total
