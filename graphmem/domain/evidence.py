"""Block assembly for read path A: records in source order under a character budget.

Pure functions: which records, in which order, how many fit. No database here.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = [
    "EVIDENCE_HEADER",
    "Evidence",
    "EvidenceRecord",
    "day_heading",
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
    # What a raw record mentions as stored ((:Evidence)-[:MENTIONS]->(:Mention): content
    # words, keyed hashes when text is sealed); read where evidence walks them.
    mentions: tuple[str, ...] = ()

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

    def day(self) -> str:
        """The day the record was said (``YYYY-MM-DD``), or "" when unknown."""
        return (self.observed_at or "")[:10]

    def line(self) -> str:
        """``pos. speaker: text (phrase = day)``: who said it, when the text does not
        begin with the name already, and the days its relative time phrases mean
        (temporal questions are answered from them). The day the record was said is
        a heading above its run of lines (``day_heading``)."""
        cached: str | None = self.__dict__.get("_line")
        if cached is None:  # laid out more than once per call: computed once
            cached = self._render_line()
            object.__setattr__(self, "_line", cached)
        return cached

    def _render_line(self) -> str:
        speaker = (self.speaker or "").strip()
        who = f"{speaker}: " if speaker and not _names_itself(self.text, speaker) else ""
        times = self.resolved_times()
        resolved = f" ({'; '.join(times)})" if times else ""
        return f"{self.pos}. {who}{self.text}{resolved}\n"


def _names_itself(text: str, speaker: str) -> bool:
    """Whether the text begins with its speaker's name, whole or the first word of it
    ("Dana: …" said by Dana Cole), as chat lines written with the name often do."""
    colon = text.find(":", 0, len(speaker) + 2)
    if colon < 0:
        return False
    head = text[:colon].strip().casefold()
    return bool(head) and head in (speaker.casefold(), speaker.split()[0].casefold())


def day_heading(before: str, day: str) -> str:
    """What stands above a line said on ``day`` after one said on ``before``: nothing
    within a day's run, ``On 2023-05-08:`` where a new day starts, ``Undated:`` where
    undated records follow dated ones. One heading per run instead of a date on every
    line leaves more of the budget to the records."""
    if day == before:
        return ""
    return f"On {day}:\n" if day else "Undated:\n"


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
    layout = _Layout.newest_that_fit(
        [by_pos[p] for p in sorted(by_pos, reverse=True)], budget_chars - len(header)
    )
    fresh: dict[int, EvidenceRecord] = {}
    for r in ranked:
        if r.pos not in by_pos:
            fresh.setdefault(r.pos, r)
    total = len(by_pos) + len(fresh)
    # A budget that holds them all is laid out at once, not searched record by record.
    if sum(len(r.text) for r in fresh.values()) > layout.room or not layout.add_all(fresh.values()):
        for r in fresh.values():
            # Most do not fit once the room is spent: a line is longer than its text.
            if len(r.text) < layout.room and len(r.line()) <= layout.room:
                layout.add(r)
    return header + layout.text(), layout.records(), len(layout.records()) < total


class _Layout:
    """Records kept in source order under a character budget; what one more costs
    counts the day headings it adds or splits, so the text never exceeds the room."""

    def __init__(self, room: int) -> None:
        self.capacity = room
        self.room = room
        self._positions: list[int] = []
        self._kept: dict[int, EvidenceRecord] = {}

    @staticmethod
    def _cost(r: EvidenceRecord, before: str, after: str | None) -> int:
        """What ``r`` costs between a line said on ``before`` and one said on ``after``
        (None: no line after it): its line, its heading, and the heading it changes for
        the line after it."""
        day = r.day()
        cost = len(r.line()) + len(day_heading(before, day))
        if after is not None:
            cost += len(day_heading(day, after)) - len(day_heading(before, after))
        return cost

    @classmethod
    def newest_that_fit(cls, newest_first: Iterable[EvidenceRecord], room: int) -> _Layout:
        """The newest records that fit, a contiguous suffix: each one is older than all
        kept so far, so its cost is that of a first line (no list insertions)."""
        layout = cls(room)
        kept: list[EvidenceRecord] = []
        for r in newest_first:
            cost = cls._cost(r, "", kept[-1].day() if kept else None)
            if cost > layout.room:
                break
            kept.append(r)
            layout.room -= cost
        for r in reversed(kept):
            layout._positions.append(r.pos)
            layout._kept[r.pos] = r
        return layout

    def add_all(self, records: Iterable[EvidenceRecord]) -> bool:
        """Keep every one of ``records`` if together they fit; whether they did."""
        merged = dict(self._kept)
        merged.update((r.pos, r) for r in records)
        positions = sorted(merged)
        used, day = 0, ""
        for p in positions:
            used += len(day_heading(day, merged[p].day())) + len(merged[p].line())
            day = merged[p].day()
        if used > self.capacity:
            return False
        self.room = self.capacity - used
        self._kept = merged
        self._positions = positions
        return True

    def add(self, r: EvidenceRecord) -> bool:
        """Keep ``r`` if it fits; whether it did."""
        if len(r.line()) > self.room:  # headings never make a record cheaper than its line
            return False
        i = bisect.bisect_left(self._positions, r.pos)
        before = self._kept[self._positions[i - 1]].day() if i > 0 else ""
        after = self._kept[self._positions[i]].day() if i < len(self._positions) else None
        cost = self._cost(r, before, after)
        if cost > self.room:
            return False
        self._positions.insert(i, r.pos)
        self._kept[r.pos] = r
        self.room -= cost
        return True

    def records(self) -> list[EvidenceRecord]:
        return [self._kept[p] for p in self._positions]

    def text(self) -> str:
        out, day = [], ""
        for r in self.records():
            out.append(day_heading(day, r.day()) + r.line())
            day = r.day()
        return "".join(out)
