"""Read path A: evidence for a question (Contract Memory Compiler: resolve at write time,
then traverse).

``cmc`` anchors on the names in the question and walks the current graph outward in one
Cypher query (anchoring and the bounded closure). The records behind the current facts it
reaches come first; then the records no fact came from (conversation turns, mostly),
ranked for the question (``raw_records.RawRecordIndex``), each one that still fits. The
evidence shows them in source order, each with its date. Only when nothing is selected
does the reader get the newest records of the whole history.

Other ways of choosing records (the baselines a benchmark compares against) plug in as
*controls*, given to the reader by name (``Memory(..., evidence_controls=...)``); they go
through the same renderer and budget.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from graphmem._errors import InvalidInputError
from graphmem.domain.anchor import MAX_QUESTION_TOKENS, candidate_spans
from graphmem.domain.evidence import (
    EVIDENCE_HEADER,
    Evidence,
    EvidenceRecord,
    render,
    render_selected,
)
from graphmem.domain.keys import normalize_name
from graphmem.embedding import VectorCache
from graphmem.language.crossscript import CrossScriptLinker, Link, latin_name_runs
from graphmem.language.korean import genitive_runs, name_runs
from graphmem.language.text import HANGUL_SYLLABLE
from graphmem.llm.base import Embedder
from graphmem.reads.blocks.vectors import VectorKeeper
from graphmem.reads.name_vectors import NameVectorKeeper
from graphmem.reads.raw_records import RawRecordIndex
from graphmem.reads.refreshing import Refreshing
from graphmem.store.protocol import Span, Store

__all__ = ["MAX_HOPS", "EvidenceControl", "EvidenceReader", "Selection"]

MAX_HOPS = 10
# Writes from another process reach the cross-script index at the latest after this.
LINKER_TTL = 300.0
# Cross-script linking looks at most this many name runs of a question (longest first).
MAX_LINK_RUNS = 64
# Of those, at most this many are embedded to be linked by meaning (tens of ms each).
MAX_MEANING_RUNS = 3
MAX_QUESTION_CHARS = 20_000
MIN_BUDGET_CHARS = 200
MAX_BUDGET_CHARS = 10_000_000


@dataclass(frozen=True)
class Selection:
    """What a control chose: anchors found, keys selected, the records to render.

    ``records`` are the current facts' records; ``ranked`` the raw records chosen for the
    question, best first, rendered after them while they fit. ``fallback``: nothing was
    selected, so the reader gets the newest records of the whole history.
    """

    anchors: list[str]
    keys: list[str]
    records: list[EvidenceRecord]
    fallback: bool = False
    ranked: list[EvidenceRecord] = field(default_factory=list)
    stats: dict[str, float] = field(default_factory=dict)  # e.g. embed_ms


# (reader, question, hops, budget_chars) -> Selection
EvidenceControl = Callable[["EvidenceReader", str, int, int], Selection]


def _cmc(reader: EvidenceReader, question: str, hops: int, budget: int) -> Selection:
    closure = reader.store.closure(reader.ns, reader.spans(question), hops)
    edges = sorted(closure.edges, key=lambda e: (e.depth, e.key))
    keys = list(dict.fromkeys(f"{e.subject} / {e.relation}" for e in edges))
    records = [ev for e in edges for ev in e.evidence]
    stats: dict[str, float] = {}
    ranked = (
        reader.raw_index(closure.raw_writes).rank(question, stats=stats)
        if closure.has_unresolved
        else []
    )
    return Selection(
        closure.anchors,
        keys,
        records,
        fallback=not keys and not ranked,
        ranked=ranked,
        stats=stats,
    )


def _with_cmc(controls: Mapping[str, EvidenceControl]) -> dict[str, EvidenceControl]:
    """``cmc`` and the given controls, their names checked."""
    out: dict[str, EvidenceControl] = {"cmc": _cmc}
    for name, control in controls.items():
        if not isinstance(name, str) or not name or not name.replace("_", "").isalnum():
            raise ValueError(f"control name {name!r} must be letters, digits and '_'")
        if name == "cmc" and control is not _cmc:
            raise ValueError("the control name 'cmc' is taken by graphmem's own reads")
        if not callable(control):
            raise TypeError(f"control {name!r} is not callable")
        out[name] = control
    return out


def _linker_caught_up(linker: CrossScriptLinker, names: set[str]) -> CrossScriptLinker:
    linker.add(names)  # in place: a rebuild per write would cost seconds at 100k names
    return linker


def _hangul_caught_up(kept: bool, names: set[str]) -> bool:
    return kept or any(HANGUL_SYLLABLE.search(n) for n in names)


@dataclass
class EvidenceReader:
    """Evidence for one namespace. Controls read the store through it.

    ``controls``: the ways of choosing records ``evidence(..., control=name)`` may name,
    besides ``cmc``, which is always there.
    """

    store: Store
    ns: str
    aliases: Mapping[str, str]
    # The namespace's vectors (shared with blocks): raw records are ranked by meaning too.
    meaning: VectorCache | None = None
    # Starts the keeper that embeds and persists the namespace's vectors in the background
    # and returns it (None: no keeper; only vectors embedded elsewhere are used).
    keep_vectors: Callable[[], VectorKeeper | None] | None = field(default=None, repr=False)
    controls: Mapping[str, EvidenceControl] = field(default_factory=dict, repr=False)
    # Links Hangul names to the Latin names they translate ("반지의 제왕"); its vectors of
    # the namespace's names are made once a question is asked in Hangul.
    name_embedder: Embedder | None = None
    # The namespace's names indexed by sound; names written through this process are
    # added as they are written (``names_added``), and it is rebuilt after LINKER_TTL.
    _linker: Refreshing[CrossScriptLinker] = field(init=False, repr=False)
    # Whether any entity is named in Hangul; a Hangul name written here sets it at once.
    _hangul: Refreshing[bool] = field(init=False, repr=False)
    # The raw records' index under the count of changes it was built at.
    _raw: tuple[int, RawRecordIndex] | None = field(default=None, init=False, repr=False)
    _raw_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        self.controls = _with_cmc(self.controls)
        self.names_by_meaning = (
            NameVectorKeeper(self.store, self.ns, self.name_embedder)
            if self.name_embedder is not None
            else None
        )
        self._linker = Refreshing(
            "linker",
            self.ns,
            lambda: CrossScriptLinker(
                self.store.entity_names(self.ns),
                key=normalize_name,
                meaning=self.names_by_meaning,
            ),
            _linker_caught_up,
            LINKER_TTL,
        )
        self._hangul = Refreshing(
            "hangul_names",
            self.ns,
            lambda: self.store.has_hangul_names(self.ns),
            _hangul_caught_up,
            LINKER_TTL,
            seed=False,  # a Hangul name written before the first check sets it too
        )

    def raw_index(self, raw_writes: int) -> RawRecordIndex:
        """The index of the namespace's raw records, reloaded only when they changed.

        ``raw_writes`` is the namespace's count of changes to its raw records, read with
        the question's closure. An index built from records loaded after that read is
        kept under it: at worst the next change rebuilds it once more, never too few.
        """
        cached = self._raw
        if cached is not None and cached[0] == raw_writes:
            return cached[1]
        # One build at a time: concurrent questions on a cold cache (a service's first
        # burst) would each build the same index.
        with self._raw_lock:
            cached = self._raw
            if cached is None or cached[0] != raw_writes:
                records = self.store.unresolved_records(self.ns)
                keeper = self.keep_vectors() if self.keep_vectors is not None else None
                if keeper is not None:
                    keeper.notify()  # the new records get their vectors in the background
                cached = (
                    raw_writes,
                    # A read never embeds the namespace's records itself (the bundled CPU
                    # model takes seconds for a long conversation): it ranks by meaning
                    # what the keeper has kept, and by words the rest.
                    RawRecordIndex(
                        records,
                        meaning=self.meaning,
                        stored_mentions=partial(self.store.stored_mentions, self.ns),
                    ),
                )
                self._raw = cached
            return cached[1]

    def spans(self, question: str) -> list[Span]:
        """The names the question may contain, as the store's anchor candidates: as
        written, and for Hangul names the Latin-script entity they render, by sound or
        with a translated head word (the closure keeps the longest match either way)."""
        out = [
            Span(f"{self.ns}/{name}", s, e)
            for name, s, e in candidate_spans(question, self.aliases)
        ]
        if HANGUL_SYLLABLE.search(question):
            linker = self.linker()
            by_meaning = [MAX_MEANING_RUNS]  # spans embedded for this question

            def korean(text: str, proper: bool) -> Link | None:
                if not proper and len(HANGUL_SYLLABLE.findall(text)) < 3:
                    return None  # short common nouns are native words (나라, 바다), not names
                # Common nouns ("테니스") must sound like the name exactly; a run of them
                # may still translate a title ("폭풍의 언덕"), by meaning.
                found = linker.link(text, exact=not proper, by_meaning=False)
                if found is None and (proper or " " in text) and by_meaning[0] > 0:
                    by_meaning[0] -= 1
                    found = linker.link_by_meaning(text)
                return found

            runs = name_runs(question)
            titles = genitive_runs(question, runs)
            out += self._linked(
                [(s, e, partial(korean, text, proper)) for text, s, e, proper in runs]
                + [(s, e, partial(korean, text, False)) for text, s, e in titles]
            )
            if self.hangul_names():  # a Latin name in a Korean question, a Hangul entity
                out += self._linked(
                    [
                        (s, e, partial(linker.link_latin, text))
                        for text, s, e in latin_name_runs(question)
                    ]
                )
        elif self.hangul_names():  # the other direction: a Latin name, a Hangul entity
            linker = self.linker()
            out += self._linked(
                [
                    (s, e, partial(linker.link_latin, text))
                    for text, s, e in latin_name_runs(question)
                ]
            )
        # a name found both as written (an alias: "이탈리아") and by the linker is one span
        return list(dict.fromkeys(out))

    def _linked(self, runs: Sequence[tuple[int, int, Callable[[], Link | None]]]) -> list[Span]:
        """The entities of a question's name runs ``(start, end, link)``, within the tokens
        anchoring reads, longest runs first: a run inside one already linked would lose to
        it anyway."""
        out: list[Span] = []
        linked: list[tuple[int, int]] = []
        runs = [r for r in runs if r[1] <= MAX_QUESTION_TOKENS]
        for s, e, link_of in sorted(runs, key=lambda r: r[0] - r[1])[:MAX_LINK_RUNS]:
            if any(a <= s and e <= b for a, b in linked):
                continue
            link = link_of()
            if link is not None:
                out.append(Span(f"{self.ns}/{normalize_name(link.name)}", s, e))
                linked.append((s, e))
        return out

    def hangul_names(self) -> bool:
        """Whether the namespace names any entity in Hangul (checked once per LINKER_TTL;
        a Hangul name written through this process sets it at once)."""
        return bool(self._hangul.get())

    def linker(self) -> CrossScriptLinker:
        """The namespace's names indexed by sound; names written through this process are
        added as they are written (``names_added``), and it is rebuilt in the background
        after LINKER_TTL."""
        return self._linker.get()

    def names_added(self, names: set[str]) -> None:
        """Names just written by this process: added to the index in place (a rebuild per
        write would cost seconds at 100k names under a steady writer)."""
        self._linker.names_added(names)
        self._hangul.names_added(names)
        if self.names_by_meaning is not None:
            self.names_by_meaning.notify()

    def reset_names(self) -> None:
        """The namespace's vectors are being cleared: the names' start over."""
        if self.names_by_meaning is not None:
            self.names_by_meaning.reset()

    def close(self) -> None:
        """Stop the thread that embeds the namespace's names, if one started."""
        if self.names_by_meaning is not None:
            self.names_by_meaning.close()

    def _newest_within(self, budget_chars: int, page: int = 256) -> list[EvidenceRecord]:
        """The newest records, newest first, until one more than the budget holds: all
        that the whole-history fallback can keep, without reading a large store whole."""
        out: list[EvidenceRecord] = []
        room = budget_chars - len(EVIDENCE_HEADER)
        before = 2**62
        while True:
            rows = self.store.newest_records(self.ns, before, page)
            for r in rows:
                out.append(r)
                room -= len(r.line())
                if room < 0:
                    return out
            if len(rows) < page:
                return out
            before = rows[-1].pos

    def evidence(
        self, question: str, hops: int = 5, budget_chars: int = 60_000, control: str = "cmc"
    ) -> Evidence:
        if not isinstance(question, str) or not question.strip():
            raise InvalidInputError("question must be a non-empty string")
        if len(question) > MAX_QUESTION_CHARS:
            raise InvalidInputError(
                f"question has {len(question):,} characters; the limit is {MAX_QUESTION_CHARS:,}"
            )
        if isinstance(hops, bool) or not isinstance(hops, int) or not 1 <= hops <= MAX_HOPS:
            raise InvalidInputError(f"hops must be an integer from 1 to {MAX_HOPS}, got {hops!r}")
        if (
            isinstance(budget_chars, bool)
            or not isinstance(budget_chars, int)
            or not MIN_BUDGET_CHARS <= budget_chars <= MAX_BUDGET_CHARS
        ):
            raise InvalidInputError(
                f"budget_chars must be an integer from {MIN_BUDGET_CHARS} to "
                f"{MAX_BUDGET_CHARS:,}, got {budget_chars!r}"
            )
        chosen = self.controls.get(control)
        if chosen is None:
            raise InvalidInputError(
                f"unknown control {control!r}; choose from {tuple(self.controls)}"
            )
        t0 = time.perf_counter()
        sel = chosen(self, question, hops, budget_chars)
        if sel.fallback:
            text, kept, truncated = render(self._newest_within(budget_chars), budget_chars)
        else:
            text, kept, truncated = render_selected(sel.records, sel.ranked, budget_chars)
        return Evidence(
            text=text,
            records=kept,
            anchors=sel.anchors,
            keys=sel.keys,
            fallback=sel.fallback,
            control=control,
            hops=hops,
            truncated=truncated,
            # ms: the whole call; embed_ms: of which embedding the question, when it was
            stats={"ms": (time.perf_counter() - t0) * 1000, **sel.stats},
        )
