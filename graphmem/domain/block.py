"""Read path B (the block study): the memory block for one request, as plain functions.

A block is ``[Relevant memory]`` and at most k lines / 800 characters, each
``- (observed date, to PARTNER) text``, built only from the active view. Ranking is
BM25F over body / entity / participant; identity picks one of several entities a
mention could mean; a slot gate abstains when no line states the requested slot.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import NamedTuple, overload

from graphmem.domain.keys import normalize_name, normalize_relation
from graphmem.language.text import (
    KOREAN_DOUBLE_SURNAMES,
    KOREAN_TITLES,
    has_hangul,
    is_hangul_syllable,
    particle_stems,
    strip_korean_title,
)

__all__ = [
    "BLOCK_HEADER",
    "CALENDAR_WORDS",
    "ActiveRecord",
    "Block",
    "BlockLine",
    "MeaningText",
    "RecordTable",
    "among",
    "called_by_short_form",
    "fact_line",
    "family_index",
    "identity_posterior",
    "mention_candidates",
    "name_index",
    "render_block",
    "requested_slot",
    "titled_name",
]

BLOCK_HEADER = "[Relevant memory]"
MAX_LINES = 6
MAX_CHARS = 800


class ActiveRecord(NamedTuple):
    """A record in the active view: it supports a current value, or no value at all.

    A named tuple, not a dataclass: a block reads dozens of these per request out of a
    snapshot's columns, and a tuple is made several times faster."""

    pos: int
    record_id: str
    text: str
    observed_at: str | None
    participants: tuple[str, ...]
    speaker: str | None
    facts: tuple[tuple[str, str, str], ...] = ()  # (subject, relation, value), current only
    keyed: bool = False  # True when the record supports any version (current or not)

    @property
    def entities(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s for s, _, _ in self.facts))


def fact_line(subject: str, relation: str, value: str) -> str:
    """A current value as one line of text, the way meaning reads it: "Minjun Park
    sync time: Tuesdays 10:30"."""
    return f"{subject} {normalize_relation(relation).replace('_', ' ')}: {value}"


class MeaningText(NamedTuple):
    """A text that gets a vector: a record's text (``kind`` "record"), a raw record's turn
    passage (``kind`` "turn", ``turn_passage``: evidence ranks turns by it) or a current
    value's line (``kind`` "fact"), with the uid of the node that keeps the vector."""

    kind: str
    uid: str
    text: str
    prev: str = ""  # a turn: the uid of the turn before it, embedded with it ("" for none)


_new_tuple = tuple.__new__


class RecordTable(Sequence[ActiveRecord]):
    """A snapshot's active records as columns of tuples, not as objects.

    Tuples of strings and numbers leave the garbage collector's tracking, so a snapshot of
    a million records adds almost nothing for a full collection to scan (as objects, it
    made collections of 200-260 ms at 100k records that stalled every reader). A record
    is made when it is read.
    """

    __slots__ = ("facts", "ids", "keyed", "observed", "participants", "pos", "speakers", "texts")

    def __init__(self, records: Iterable[ActiveRecord] = ()) -> None:
        rows = [
            (r.pos, r.record_id, r.text, r.observed_at, r.speaker, r.participants, r.facts, r.keyed)
            for r in records
        ]
        cols = list(zip(*rows, strict=True)) if rows else [()] * 8
        self.pos: tuple[int, ...] = tuple(cols[0])
        self.ids: tuple[str, ...] = tuple(cols[1])
        self.texts: tuple[str, ...] = tuple(cols[2])
        self.observed: tuple[str | None, ...] = tuple(cols[3])
        self.speakers: tuple[str | None, ...] = tuple(cols[4])
        self.participants: tuple[tuple[str, ...], ...] = tuple(cols[5])
        self.facts: tuple[tuple[tuple[str, str, str], ...], ...] = tuple(cols[6])
        self.keyed: tuple[bool, ...] = tuple(cols[7])

    @classmethod
    def from_columns(
        cls,
        pos: Sequence[int],
        ids: Sequence[str],
        texts: Sequence[str],
        observed: Sequence[str | None],
        speakers: Sequence[str | None],
        participants: Sequence[tuple[str, ...]],
        facts: Sequence[tuple[tuple[str, str, str], ...]],
        keyed: Sequence[bool],
    ) -> RecordTable:
        table = cls()
        table.pos, table.ids, table.texts = tuple(pos), tuple(ids), tuple(texts)
        table.observed, table.speakers = tuple(observed), tuple(speakers)
        table.participants, table.facts, table.keyed = (
            tuple(participants),
            tuple(facts),
            tuple(keyed),
        )
        return table

    def __len__(self) -> int:
        return len(self.pos)

    @overload
    def __getitem__(self, i: int) -> ActiveRecord: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[ActiveRecord, ...]: ...

    def __getitem__(self, i: int | slice) -> ActiveRecord | tuple[ActiveRecord, ...]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        # tuple.__new__ skips the named tuple's Python-level constructor: a block reads
        # dozens of rows per request.
        return _new_tuple(
            ActiveRecord,
            (
                self.pos[i],
                self.ids[i],
                self.texts[i],
                self.observed[i],
                self.participants[i],
                self.speakers[i],
                self.facts[i],
                self.keyed[i],
            ),
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RecordTable):
            return all(getattr(self, a) == getattr(other, a) for a in self.__slots__)
        if isinstance(other, Sequence):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class BlockLine:
    record: ActiveRecord
    score: float

    def render(self) -> str:
        date = (self.record.observed_at or "")[:10] or "undated"
        partner = ", ".join(self.record.participants) or "unknown"
        return f"- ({date}, to {partner}) {self.record.text}"


@dataclass(frozen=True)
class Block:
    """What ``Memory.block`` returns: the text to prepend, and why it looks as it does.

    Immutable: the server makes a changed copy (``dataclasses.replace``) when it adds how
    the block was served."""

    text: str
    lines: Sequence[BlockLine]  # kept as a tuple
    abstained: bool = False
    fell_back: bool = False  # the deadline passed: served from the snapshot
    reason: str = ""
    slot: str | None = None
    posterior: Mapping[str, float] = field(default_factory=dict)
    latency_ms: float = 0.0
    served: str = "snapshot"  # "fresh": read from Neo4j for this call; "snapshot": the RCU copy
    snapshot_age_ms: float = 0.0  # how old the snapshot was when it served (0 when fresh)

    def __post_init__(self) -> None:
        if not isinstance(self.lines, tuple):
            object.__setattr__(self, "lines", tuple(self.lines))
        if not isinstance(self.posterior, MappingProxyType):
            object.__setattr__(self, "posterior", MappingProxyType(dict(self.posterior)))

    @property
    def line_texts(self) -> list[str]:
        return [ln.render() for ln in self.lines]


def render_block(
    lines: Sequence[BlockLine], k: int = MAX_LINES, max_chars: int = MAX_CHARS
) -> tuple[str, list[BlockLine]]:
    """Header plus the best lines that fit k lines and max_chars (header included)."""
    kept: list[BlockLine] = []
    size = len(BLOCK_HEADER)
    for ln in lines:
        if len(kept) >= k:
            break
        add = len(ln.render()) + 1
        if size + add > max_chars:
            continue
        kept.append(ln)
        size += add
    if not kept:
        return "", []
    return BLOCK_HEADER + "\n" + "\n".join(ln.render() for ln in kept), kept


# -- identity ---------------------------------------------------------------------------
_WORD = re.compile(r"[\w'’]+", re.UNICODE)


_TWO_SYLLABLE_SURNAMES = frozenset({*KOREAN_DOUBLE_SURNAMES, "동방"})


def name_parts(full_name: str) -> set[str]:
    """The parts a person may be called by: 'Minjun Kim' -> {minjun, kim};
    '김민준' -> {민준, 김민준}. Used to find which stored entities a mention could mean."""
    norm = normalize_name(full_name)
    parts = set(norm.split())
    if len(norm) == 3 and all(map(is_hangul_syllable, norm)):
        parts.add(norm[1:])  # the given name of a three-syllable Korean name
    elif len(norm) == 4 and norm[:2] in _TWO_SYLLABLE_SURNAMES:
        parts.add(norm[2:])  # 남궁민수 is called 민수
    parts.add(norm)
    return parts


def name_index(entities: Iterable[str]) -> dict[str, list[str]]:
    """Every part a person may be called by -> the entities that have it, sorted."""
    by_part: dict[str, set[str]] = {}
    for e in entities:
        for p in name_parts(e):
            by_part.setdefault(p, set()).add(e)
    # Sorted once here, not per request: a given name may be shared by a thousand people.
    return {p: sorted(es) for p, es in by_part.items()}


# Where a short form of a given name is said as a name: "Ros" in "Ros K: I'm on leave",
# "Ros, so glad you could join". Not where a sentence starts ("How's it going?" in
# Howard's chat) unless a comma, a colon or an initial follows it.
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|\n)$")
# Calendar words written like short names ("Jan 5" is not Janet, "Mon" not Monique).
_CALENDAR_WORDS = "jan feb mar apr may jun jul aug sep sept oct nov dec"
_CALENDAR_WORDS += " mon tue tues wed thu thur thurs fri sat sun"
CALENDAR_WORDS = frozenset(_CALENDAR_WORDS.split())


def called_by_short_form(
    word: str, records: Iterable[tuple[str, Iterable[str]]], people: Iterable[str]
) -> list[str]:
    """Which of ``people`` (whose given names begin with ``word``) the ``records`` (each a
    text and who takes part in it) call by ``word`` as a name, where they take part:
    "Ros" for Rosalind where a message to her says "Ros, so glad you could join" or she
    signs "Ros A:", "Clem" for Clement in "Clem's shirt size is XL". Sorted; a month's
    or a day's abbreviation is no short form."""
    word = word.casefold()
    if len(word) < 3 or not (word.isascii() and word.isalpha()) or word in CALENDAR_WORDS:
        return []
    said = re.compile(
        rf"(?<![\w'’.]){re.escape(word.capitalize())}(?=['’]s\b|[^\w'’]|$)"
        rf"(?=(\s*[,:]|\s[A-Z]\b)?)"
    )
    wanted = set(people)
    found: set[str] = set()
    for text, present in records:
        here = wanted & set(present)
        if not here or here <= found:
            continue
        for m in said.finditer(text):
            if m.group(1) is None and _SENTENCE_START.search(text[: m.start()]):
                continue
            found |= here
            break
    return sorted(found)


def family_index(entities: Iterable[str]) -> dict[str, list[str]]:
    """Korean family name -> the entities that have it, sorted: "황보쌤" and "김 대리님"
    call people by it."""
    by_family: dict[str, set[str]] = {}
    for e in entities:
        family = _korean_family_name(normalize_name(e))
        if family:
            by_family.setdefault(family, set()).add(e)
    return {f: sorted(es) for f, es in by_family.items()}


def _korean_family_name(norm: str) -> str | None:
    if not norm or not all(map(is_hangul_syllable, norm)):
        return None
    if len(norm) == 4 and norm[:2] in _TWO_SYLLABLE_SURNAMES:
        return norm[:2]
    return norm[0] if len(norm) == 3 else None


def titled_name(token: str) -> tuple[str, bool]:
    """The name in a request word, and whether a title was written on it: '지호쌤' ->
    ('지호', True); '보람씨는' (a title, then a particle) -> ('보람', True)."""
    bare = strip_korean_title(token)
    if bare != token:
        return normalize_name(bare), True
    for stem in particle_stems(token):
        bare = strip_korean_title(stem)
        if bare != stem:
            return normalize_name(bare), True
    return normalize_name(token), False


def mention_candidates(
    request: str,
    entities: Iterable[str] | Mapping[str, Sequence[str]],
    families: Mapping[str, Sequence[str]] | None = None,
    called: Callable[[str], Sequence[str]] | None = None,
) -> dict[str, Sequence[str]]:
    """For each mention in the request, the stored entities it could mean.

    A full name matches only itself; a given name matches every entity that has it; a
    Korean family name with a title ("황보쌤", "박 과장님") matches the people of that
    family name. ``called`` finds whom a word no name index holds may still name (a
    Latin name written in Hangul, "소피랑"; a short form, "Ros"). ``entities`` may be a
    prebuilt ``name_index`` (its lists sorted and
    distinct), ``families`` its ``family_index`` (built here when not given); their
    lists are returned as they are, not copied (a given name may be a thousand
    people's), so callers must not change them.
    """
    if not isinstance(entities, Mapping):
        entities = list(entities)
        families = family_index(entities) if families is None else families
        by_part: Mapping[str, Sequence[str]] = name_index(entities)
    else:
        by_part = entities
    families = families or {}
    out: dict[str, Sequence[str]] = {}
    tokens, titled = _name_tokens(request)
    for i, tok in enumerate(tokens):
        two = f"{tok} {tokens[i + 1]}" if i + 1 < len(tokens) else None
        if two and two in by_part and len(by_part[two]) == 1:
            out[two] = by_part[two]
            continue
        variants = [tok, *particle_stems(tok)]
        # 경호형이랑, 선우형: 형 also ends given names (지형), so it is cut only where a
        # name someone is called by stays.
        variants += [v[:-1] for v in variants if has_hangul(v) and v.endswith("형") and len(v) > 2]
        if has_hangul(tok) and tok.endswith("네") and len(tok) > 2:
            # 태윤네, 태윤님네, 태윤씨네: "Taeyun's (family's)"
            variants.append(normalize_name(strip_korean_title(tok[:-1])))
        for v in variants:
            if v in by_part:
                if any(v in k.split() for k in out):  # already part of a full-name match
                    break
                out[v] = by_part[v]
                break
        else:
            family = families.get(tok) if titled[i] else None
            if family:
                out[tok] = family
            elif called is not None:
                for v in variants:
                    if whom := called(v):
                        out[v] = whom
                        break
    return out


@functools.lru_cache(maxsize=256)
def _name_tokens(request: str) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """The request's words as names (titles and particles cut off), and for each whether
    a title was written on it or follows it. Kept for a few requests: a block reads each
    request's mentions twice, against two indexes of names."""
    words = _WORD.findall(request)
    tokens: list[str] = []
    titled: list[bool] = []
    for w, after in zip(words, [*words[1:], ""], strict=True):
        tok, had_title = titled_name(w)
        if tok:
            tokens.append(tok)
            titled.append(had_title or _is_title(after))
    return tuple(tokens), tuple(titled)


def among(name: str, sorted_names: Sequence[str]) -> bool:
    """Whether ``name`` is one of ``sorted_names`` (sorted, as ``name_index`` keeps them):
    by bisection, for a given name a thousand people may share."""
    i = bisect.bisect_left(sorted_names, name)
    return i < len(sorted_names) and sorted_names[i] == name


def _is_title(word: str) -> bool:
    """'과장님', '과장님이': a title on its own, perhaps with a particle. Any office or
    trade said with 님 after a family name is one too ("방 상무님", "하 변리사님이랑",
    "염 주무관님"): the list of titles cannot hold every trade."""
    forms = (word, *particle_stems(word, min_stem=1))
    return any(w in KOREAN_TITLES or _honorific_office(w) for w in forms)


def _honorific_office(word: str) -> bool:
    """A Hangul word of two or more syllables before 님: "상무님", "변리사님"."""
    return len(word) >= 3 and word.endswith("님") and all(map(is_hangul_syllable, word[:-1]))


def _days(a: str | None, b: str | None) -> float:
    if not a or not b:
        return 365.0
    try:
        return abs((datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds()) / 86400
    except (ValueError, TypeError):
        return 365.0


def identity_posterior(
    candidates: Sequence[str],
    partner: str,
    comention: Mapping[str, Mapping[str, float]],
    last_seen: Mapping[str, str],
    now: str,
    temperature: float = 0.5,
) -> dict[str, float]:
    """The block study's identity score: s(e) = 1[e = P] + e's share of P's ties to the
    candidates + 0.25 * 2^(-age/30 days); posterior = softmax(s / T). P's ties are the
    records P took part in: about e, or with e taking part too."""
    p_norm = normalize_name(partner)
    weights = comention.get(p_norm, {})
    # Shares among the candidates: which of the namesakes the partner knows, however
    # many other people the partner knows too.
    total = sum(weights.get(normalize_name(e), 0.0) for e in candidates) or 1.0
    scores = {}
    for e in candidates:
        en = normalize_name(e)
        s = 1.0 * (en == p_norm)
        s += weights.get(en, 0.0) / total
        s += 0.25 * 2 ** (-_days(last_seen.get(en), now) / 30.0)
        scores[e] = s
    if not scores:
        return {}
    m = max(scores.values())
    exp = {e: math.exp((s - m) / temperature) for e, s in scores.items()}
    z = sum(exp.values())
    return {e: v / z for e, v in exp.items()}


# -- the requested slot ----------------------------------------------------------------------
_TIME_ENDINGS = re.compile(r"(\bat\s*$|\bwhen\b|\bwhat time\b|몇\s*시|시에\s*$|언제)", re.I)
_ROOM_ENDINGS = re.compile(r"(\bin\s*$|\bwhere\b|\bwhich room\b|어디|어느\s*방|에서\s*$)", re.I)


def requested_slot(request: str, slots: Iterable[tuple[str, Sequence[str], str]]) -> str | None:
    """The slot a request asks for, from its noun and its ending; None when unclear.

    ``slots``: (name, nouns, value type). A noun that announces several slots (meeting →
    time or room) is settled by the ending: "is at" / "몇 시" → time, "is in" / "어디" → room.
    Otherwise the slot with the longest matching noun wins ("budget cap" over "budget");
    a tie is unclear.
    """
    text = request.casefold()
    hits: list[tuple[str, str, int]] = []  # (slot, value type, longest matching noun)
    for name, nouns, vtype in slots:
        longest = max((len(n) for n in nouns if n.casefold() in text), default=0)
        if longest:
            hits.append((name, vtype, longest))
    if len(hits) <= 1:
        return hits[0][0] if hits else None
    if _TIME_ENDINGS.search(request):
        narrowed = [n for n, t, _ in hits if t == "time"]
    elif _ROOM_ENDINGS.search(request):
        narrowed = [n for n, t, _ in hits if t == "room"]
    else:
        narrowed = []
    if len(narrowed) == 1:
        return narrowed[0]
    best = max(h[2] for h in hits)
    winners = [n for n, _, size in hits if size == best]
    return winners[0] if len(winners) == 1 else None
