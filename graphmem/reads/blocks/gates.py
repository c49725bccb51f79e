"""Block policy: which of the index's lines a request is served, as pure functions.

``compose(snapshot, request, ranking, policy) -> Block`` applies identity (which of
several people a name means) and then a gate: ``reading`` serves only lines whose fact
answers the request as read (a value of the asked type, about the asked topic, of the
person asked about); ``slot`` and ``margin`` are the simpler gates benchmarks compare
against. No thread, no Neo4j: a snapshot built from records is all a test needs.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from graphmem._errors import InvalidInputError
from graphmem.config import BlockOptions
from graphmem.domain.block import (
    ActiveRecord,
    Block,
    BlockLine,
    among,
    fact_line,
    identity_posterior,
    mention_candidates,
    name_parts,
    render_block,
    requested_slot,
)
from graphmem.domain.keys import RelationRegistry, normalize_name, normalize_relation
from graphmem.domain.model import _iso, utc_now_iso
from graphmem.embedding import BundledE5, VectorCache
from graphmem.extract.slots import DEFAULT_SLOTS, SlotSpec
from graphmem.language.text import KOREAN_RANK_TITLES, has_hangul, korean_address_forms
from graphmem.reads.blocks import answer_head as head_mod
from graphmem.reads.blocks.answer_head import (
    AnswerHead,
    HeadSample,
    bundled_head,
    bundled_plain_head,
    keyed_pick,
    plain_pick,
)
from graphmem.reads.blocks.index import BlockSnapshot, Ranking
from graphmem.reads.request_reading import (
    FORMLESS_TYPES,
    FactMatch,
    RequestReading,
    accepts,
    another_kind,
    another_korean_kind,
    another_numbered,
    another_period,
    kind_words,
    korean_kind_nouns,
    match_fact,
    names_topic,
    read_request,
    relation_types,
    restates,
    sets_aside,
    settle_types,
    states_a_change,
    text_types,
    the_other_end,
    value_type,
)

__all__ = [
    "IDENTITY_CONFIDENCE",
    "MAX_REQUEST_CHARS",
    "BlockRequest",
    "GatePolicy",
    "about",
    "compose",
    "read_gate",
]

MAX_REQUEST_CHARS = 20_000
# The reading gate serves a namesake's lines only when the identity posterior is at least
# this sure (chosen on the development splits of the block-request sets).
IDENTITY_CONFIDENCE = 0.74
# A partner tied to several namesakes of their own name means the one they are tied to
# this many times more than to any other.
OTHER_TIE_LEAD = 2.0
# A partner tied this much to each of two namesakes (as much as one message between the
# two alone; a group chat of eight ties a seventh as much) knows both: the posterior does
# not choose between them.
KNOWS_BOTH = 1.0


@dataclass(frozen=True)
class BlockRequest:
    """One block request: the unfinished message, who it is to, when, and how.

    Validated on construction: text too long, a bad ``now`` or options out of range are
    an ``InvalidInputError`` before any work is done.
    """

    request: str
    partner: str = ""
    now: str | None = None
    options: BlockOptions = field(default_factory=BlockOptions)

    def __post_init__(self) -> None:
        for name in ("request", "partner"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise InvalidInputError(f"{name} must be a string, got {type(value).__name__}")
            if len(value) > MAX_REQUEST_CHARS:
                raise InvalidInputError(
                    f"{name} has {len(value):,} characters; the limit is {MAX_REQUEST_CHARS:,}"
                )
        object.__setattr__(self, "now", _iso(self.now, "now") or utc_now_iso())
        if not isinstance(self.options, BlockOptions):
            raise InvalidInputError("options must be a BlockOptions")


@dataclass(frozen=True)
class GatePolicy:
    """What the gates read besides the request: the namespace's relations (their
    synonyms and declared value types) and the built-in slots' nouns."""

    registry: RelationRegistry = field(default_factory=RelationRegistry)
    # (name, nouns in both languages, value type): what the slot gate reads requests by.
    slot_nouns: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    # Reads requests by meaning besides words (None: words only).
    meaning: VectorCache | None = None
    # Corrects the reading gate's keyed decisions (only for the model it was fitted on).
    answer_head: AnswerHead | None = None
    # ... and its plain-text ones (raw records, nothing keyed about the person).
    plain_head: AnswerHead | None = None

    @classmethod
    def of(
        cls,
        registry: RelationRegistry | None = None,
        slots: Iterable[SlotSpec] = DEFAULT_SLOTS,
        meaning: VectorCache | None = None,
    ) -> GatePolicy:
        nouns = tuple((sp.name, (*sp.nouns_en, *sp.nouns_ko), sp.value_type) for sp in slots)
        if meaning is None:
            return cls(registry or RelationRegistry(), nouns)

        def fitted_for_meaning(head: AnswerHead | None) -> AnswerHead | None:
            # A head reads one model's vectors: none for another embedder.
            return head if head is not None and head.model == meaning.model else None

        return cls(
            registry or RelationRegistry(),
            nouns,
            meaning,
            fitted_for_meaning(bundled_head()),
            fitted_for_meaning(bundled_plain_head()),
        )


def _the_partner(as_stored: str | None, namesakes: Sequence[str]) -> list[str]:
    """The partner (their name as stored), when among the namesakes a mention may mean
    (sorted, as the name indexes keep them)."""
    return [as_stored] if as_stored is not None and among(as_stored, namesakes) else []


def compose(
    snap: BlockSnapshot,
    req: BlockRequest,
    ranking: Ranking,
    policy: GatePolicy,
) -> Block:
    """The block for ``req``: identity filters on the ranking (the index's best lines),
    then the gate the request's options name."""
    request, partner, now = req.request, req.partner, str(req.now)
    opts = req.options
    identity, gate, k, tau, margin = opts.identity, opts.gate, opts.k, opts.tau, opts.margin
    if not request.strip():
        return Block("", [], abstained=True, reason="empty request")
    p_norm = normalize_name(partner)
    # Identity: which stored entity does each mention mean?
    cands = mention_candidates(request, snap.names, called=snap.called)
    posterior: dict[str, float] = {}
    excluded: set[str] = set()
    as_stored = snap.stored_name.get(p_norm)
    for _mention, es in cands.items():
        mine = _the_partner(as_stored, es)
        if len(es) == 1 or mine:
            # A name the partner bears means the partner (the reading gate reads cues).
            chosen = (mine or es)[0]
            posterior[chosen] = 1.0
            if identity == "posterior" and gate != "reading":
                excluded |= {e for e in es if e != chosen}
            continue
        post = identity_posterior(es, partner, snap.comention, snap.last_seen, now)
        posterior.update(post)
        # The reading gate decides namesakes itself: a cue in the request beats the
        # partner's ties ("Noor from Cellar 9" when the partner works with the other).
        if identity == "posterior" and gate != "reading":
            chosen = max(post, key=post.__getitem__)
            excluded |= {e for e in es if e != chosen}
    if not cands and partner:
        posterior[partner] = 1.0
    if gate == "reading" and identity not in ("hard", "participant"):
        return read_gate(req, snap, ranking, posterior, excluded, policy)
    ranked = ranking.rows
    if identity == "hard":
        # The extreme variant: a name means the partner or nobody we know.
        named = {e for es in cands.values() if len(es) > 1 for e in es}
        drop = {normalize_name(e) for e in named if normalize_name(e) != p_norm}
        ranked = [(r, s) for r, s in ranked if not ({normalize_name(e) for e in r.entities} & drop)]
    elif identity == "participant":
        # LoCoMo's participant filter: only records of conversations with the partner.
        ranked = [
            (r, s) for r, s in ranked if p_norm in {normalize_name(p) for p in r.participants}
        ]
    elif identity == "posterior" and excluded:
        ex = {normalize_name(e) for e in excluded}
        ranked = [(r, s) for r, s in ranked if not ({normalize_name(e) for e in r.entities} & ex)]
    if gate == "reading":
        filtered = Ranking(snap, request, partner, rows=ranked)
        return read_gate(req, snap, filtered, posterior, excluded, policy)
    lines = [BlockLine(r, s) for r, s in ranked]
    slot = requested_slot(request, policy.slot_nouns)
    top = lines[:k]
    post_norm = {normalize_name(e): p for e, p in posterior.items()}
    if gate == "slot" and slot is not None:
        want = normalize_relation(slot)
        ok = any(
            rel == want and post_norm.get(normalize_name(subj), 0.0) >= tau
            for ln in top
            for subj, rel, _ in ln.record.facts
        )
        if not ok:
            return Block(
                "",
                [],
                abstained=True,
                reason=f"no line states {slot!r}",
                slot=slot,
                posterior=posterior,
            )
    elif gate in ("slot", "margin"):
        if not top:
            return Block(
                "", [], abstained=True, reason="nothing matched", slot=slot, posterior=posterior
            )
        second = lines[len(top)].score if len(lines) > len(top) else 0.0
        if top[0].score <= 0 or (second and (top[0].score - second) / top[0].score < margin):
            return Block(
                "",
                [],
                abstained=True,
                reason="no clear winner (margin gate)",
                slot=slot,
                posterior=posterior,
            )
    text, kept = render_block(top, k, opts.max_chars)
    return Block(
        text,
        kept,
        abstained=not kept,
        slot=slot,
        posterior=posterior,
        reason="" if kept else "nothing matched",
    )


def about(policy: GatePolicy, relation: str, text: str) -> str:
    """What memory says about a fact: its relation's name, the names declared for
    it, and the text of the record that stated it."""
    rel = normalize_relation(relation)
    syns = [k for k, v in policy.registry.synonyms.items() if v == rel]
    return " ".join([rel.replace("_", " "), *(x.replace("_", " ") for x in syns), text])


# Two kinds of one thing ("fuel card" / "petty cash card") are further apart in meaning
# than a kind and its synonym ("backup camera" / "spare camera"): e5's cosine between the
# two phrases as passages; chosen on the development splits.
KINDS_APART = 0.93

# The reading gate by meaning. A fact no word of the request names is served only when it
# is the single fact of the person asked about closest in meaning to the request (of any
# type: "where's the vet" whose closest fact is the appointment's time gets nothing) and
# at least this close (e5's cosine); chosen on the development split.
MEANING_FLOOR = 0.84
# A fact chosen by meaning may be this much less close than the person's closest fact of
# any type ("what time do I pick Owen up": the pickup spot is as close as the pickup time).
NEAREST_SLACK = 0.02
# e5 puts Korean texts closer together than English ones: a Korean request's fact chosen
# by meaning takes this much more closeness (chosen on the dev splits, where the Korean
# facts it keeps out answered nothing more often than they answered).
KEYED_KOREAN_SHIFT = 0.01
# A request that asks for no type needs this much more closeness.
UNTYPED_EXTRA = 0.03
# Candidates by meaning for a request that names no one: the facts nearest to it, in
# namespaces of up to this many records (beyond, the words' candidates alone).
NEAREST_FACTS = 3
NEAREST_LIMIT = 20_000
# ... and embedding at most this many of their texts on the spot.
NEAREST_EMBED = 64

# Words found in a fact count this much beside its closeness in meaning.
WORD_WEIGHT = 0.05
# A plain record no word of the request names is served from this closeness up.
PLAIN_FLOOR = 0.82
# Plain records: two that say the same thing this closely are one topic (the newer wins).
SAME_TOPIC = 0.9
# ... when its closeness to the request is within this of the best one's.
SAME_TOPIC_SLACK = 0.05
# A later message that says it changes something is on the same topic from this close.
UPDATE_TOPIC = 0.88
# ... and from this close when the request asks whether something changed.
UPDATE_ASKED = 0.85
# e5 puts Korean texts closer together than English ones: in Korean, a plain record's
# floor and "the same topic" take this much more closeness (chosen on the dev splits).
PLAIN_KOREAN_SHIFT = 0.03


# Cues are read, and namesakes left open tried one by one, for a few namesakes, not for
# a thousand.
_FEW_NAMESAKES = 16


@dataclass(frozen=True)
class _Asked:
    """Whom a request asks about: ``people`` (normalized), and the namesakes of one
    mention that nothing about them told apart (``open``; the later mentions unread)."""

    people: frozenset[str]
    open: tuple[str, ...] = ()


def _who_is_asked(
    req: BlockRequest,
    snap: BlockSnapshot,
    topic: tuple[str, ...],
    posterior: dict[str, float],
    tau: float,
    mentions: Mapping[str, Sequence[str]],
) -> _Asked:
    """The people a request asks about. A cue points at a namesake ("Minjun from
    finance": a word found only in one namesake's records); a mention of the partner's
    own name means the namesake the partner is tied to, or the partner when tied to
    none; other namesakes are told apart by the identity posterior, and those it leaves
    unsure of are left ``open``. ``mentions``: the request's ``mention_candidates``
    among everyone memory has heard of."""
    asked: set[str] = set()
    as_stored = snap.stored_name.get(normalize_name(req.partner))
    for mention, es in mentions.items():
        if len(es) > 1:
            es = _by_initial(req.request, mention, es, snap.people)
        if len(es) > 1:
            few = len(es) <= _FEW_NAMESAKES
            cue = _cues(req.request, mention, es, snap, topic) if few else {}
            top = max(cue.values(), default=0)
            mine = _the_partner(as_stored, es)
            titled = _by_title(req, mention, es, snap) if few else es
            if len(titled) == 1:
                es = titled
            elif top and list(cue.values()).count(top) == 1:
                chosen = max(cue, key=cue.__getitem__)
                if mine and cue.get(mine[0], 0) == top:
                    chosen = mine[0]
                es = [chosen]
            elif few and len(called := _by_address(req.request, mention, es, snap)) == 1:
                es = called
            elif few and len(so := _called_so(req.request, mention, es, snap)) == 1:
                es = so
            elif few and len(kin := _kin(as_stored or req.partner, es)) == 1:
                es = kin
            elif mine:
                theirs = _partner_or_theirs(mine[0], es, req.partner, snap)
                if len(theirs) == 1:
                    # ``compose`` put the partner first; the other namesakes (perhaps
                    # a thousand) are left out, as unlikely as any stranger.
                    posterior[mine[0]] = 0.0
                    posterior[theirs[0]] = 1.0
                es = theirs
            if len(es) > 1:
                post = identity_posterior(
                    es, req.partner, snap.comention, snap.last_seen, str(req.now)
                )
                posterior.update(post)
                best = max(post, key=post.__getitem__)
                if post[best] < max(tau, IDENTITY_CONFIDENCE) or _knows_both(snap, req.partner, es):
                    # Last, a cue read where each is without the others: a word said
                    # where both are ("the choir's conductor" writing to a group both
                    # sing in) tells neither apart, and a word of the topic beside the
                    # name ("우리 민호 휴가") must not outweigh the partner's ties.
                    apart = _cues(req.request, mention, es, snap, topic, es) if few else {}
                    top = max(apart.values(), default=0)
                    if not top or list(apart.values()).count(top) > 1:
                        return _Asked(frozenset(asked), tuple(es))
                    best = max(apart, key=apart.__getitem__)
                es = [best]
        asked.add(normalize_name(es[0]))
    return _Asked(frozenset(asked))


def _knows_both(snap: BlockSnapshot, partner: str, namesakes: Sequence[str]) -> bool:
    """Whether the partner knows two or more of ``namesakes`` (``KNOWS_BOTH``): then how
    much more they talk with one says little of which one a request means. Walked from
    the partner's ties (a few), not from the namesakes (sorted; perhaps a thousand)."""
    ties = snap.comention.get(normalize_name(partner), {})
    known = (
        1
        for k, w in ties.items()
        if w >= KNOWS_BOTH and among(snap.stored_name.get(k, ""), namesakes)
    )
    return sum(known) > 1


def _partner_or_theirs(
    partner_as_stored: str, namesakes: Sequence[str], partner: str, snap: BlockSnapshot
) -> list[str]:
    """Whom a name the partner bears means. People speak of themselves as "I", so Minjun
    asking about "Minjun" means the other Minjun they are tied to (talked with, or took
    part in a record about); the partner only when tied to none of the others, as among a
    thousand strangers who share the name. Ties to several others, none clearly first,
    leave all of them (the caller asks the posterior). ``namesakes`` are sorted, as the
    name indexes keep them."""
    # The partner's ties, in the namesakes' order: walked from the ties (a few), not from
    # the namesakes (a thousand strangers may share the name).
    ties = snap.comention.get(normalize_name(partner), {})
    found = {
        e: w
        for k, w in ties.items()
        if w > 0 and (e := snap.stored_name.get(k, "")) != partner_as_stored and among(e, namesakes)
    }
    tied = {e: found[e] for e in namesakes if e in found} if len(found) > 1 else found
    if not tied:
        return [partner_as_stored]
    ranked = sorted(tied.values(), reverse=True)
    if len(ranked) == 1 or ranked[0] >= OTHER_TIE_LEAD * ranked[1]:
        return [max(tied, key=tied.__getitem__)]
    return list(tied)


def _kin(partner: str, namesakes: Sequence[str]) -> Sequence[str]:
    """The one namesake who bears the partner's family name, in Latin script, where a
    family name is shared by a household ("what time does Cyril need to be there?" from
    Joyce Beaumont means Cyril Beaumont); all of them when none or several do. A Korean
    family name is shared by millions and tells no kin."""
    parts = normalize_name(partner).split()
    if len(parts) < 2 or has_hangul(partner):
        return namesakes
    fits = [
        e
        for e in namesakes
        if e != partner and len(p := normalize_name(e).split()) > 1 and p[-1] == parts[-1]
    ]
    return fits if len(fits) == 1 else namesakes


def _by_title(
    req: BlockRequest, mention: str, namesakes: Sequence[str], snap: BlockSnapshot
) -> Sequence[str]:
    """Korean: the namesake a title beside the mention belongs to ("명수 사장님" is 표명수
    where the partner's or the namesakes' records say "표 사장님" or "표명수 사장"). A
    title said with the shared given name alone tells nothing, nor one said to someone
    ("새 사장님 오신다니까" in 차명수's own message). All of them when no title, or not
    exactly one of them, is so called."""
    if not has_hangul(mention):
        return namesakes
    near = _beside(req.request, mention)
    titles = [t for t in KOREAN_RANK_TITLES if t in near]
    if not titles:
        return namesakes
    norm = {e: normalize_name(e) for e in namesakes}
    where = set(snap.by_person.get(normalize_name(req.partner), ()))
    for e in namesakes:
        where.update(snap.by_person.get(norm[e], ()))
    texts = [snap.records.texts[i] for i in sorted(where)]
    said = "|".join(map(re.escape, titles))
    fits = []
    for e in namesakes:
        full = norm[e].replace(" ", "")
        family = full[: -len(mention)] if full.endswith(mention) and full != mention else ""
        names = "|".join(re.escape(n) for n in (full, family) if n)
        called = re.compile(rf"(?<![가-힣])(?:{names})\s?(?:{said})")
        if any(called.search(t) for t in texts):
            fits.append(e)
    return fits if len(fits) == 1 else namesakes


def _by_initial(
    request: str, mention: str, namesakes: Sequence[str], parts: Mapping[str, Sequence[str]]
) -> Sequence[str]:
    """The namesakes a family name or its initial after the given name leaves ("Hugo M",
    "Lucia G.", "Ros Kerr" where Ros is a short form; ``parts`` is the name index): all
    of them when there is none or it fits none."""
    if " " in mention:  # a full name already says which one
        return namesakes
    words = [re.sub(r"['’]s$", "", w) for w in _NAME_WORD.findall(request.casefold())]
    afters = {after for w, after in itertools.pairwise(words) if w == mention and after.isalpha()}
    initials = {a for a in afters if len(a) == 1}
    # A word after the name that is no one's name part ("Minjun is") says nothing, and a
    # thousand namesakes are not read for it.
    named = {e for a in afters if len(a) > 1 and a in parts for e in parts[a]}
    if not initials and not named:
        return namesakes
    fits = [
        e
        for e in namesakes
        if e in named or any(p[:1] in initials for p in normalize_name(e).split() if p != mention)
    ]
    return fits or namesakes


# The forms that tell who is meant: how close the speaker is to them, or their rank. 님,
# 씨 and 선생님 are said to anyone politely.
_TELLING_FORMS = frozenset({"intimate", "elder", "rank"})


def _by_address(
    request: str, mention: str, namesakes: Sequence[str], snap: BlockSnapshot
) -> Sequence[str]:
    """The namesakes called the way the request calls them ("소연이" is the friend, not
    the teacher called 소연쌤): the forms each is called by where no other namesake takes
    part. All of them when the request's form tells nothing, when it is not one only one
    of them is called by, or when one of them is never called by name."""
    if not has_hangul(mention):
        return namesakes
    asked = korean_address_forms(request, mention)
    if len(asked) != 1 or not asked <= _TELLING_FORMS:
        return namesakes
    norm = {e: normalize_name(e) for e in namesakes}
    seen: dict[str, set[str]] = {}
    for e in namesakes:
        others = {norm[o] for o in namesakes if o != e}
        forms: set[str] = set()
        for i in snap.by_person.get(norm[e], ()):
            speaker = snap.records.speakers[i]
            if speaker is not None and normalize_name(speaker) == norm[e]:
                continue  # what someone says names others, not themselves
            present = {normalize_name(p) for p in snap.records.participants[i]}
            present |= {normalize_name(s) for s, _, _ in snap.records.facts[i]}
            if present & others:
                continue
            forms |= korean_address_forms(snap.records.texts[i], mention)
        seen[e] = forms
    fits = [e for e in namesakes if asked <= seen[e]]
    return fits if len(fits) == 1 and all(seen.values()) else namesakes


# Words before a name that say nothing of who is meant.
_NOT_DESCRIBING_WORDS = (
    "the a an our my your his her their and or with to for from about is was are when "
    "where what who how did does do tell ask remind 우리 저희 제 내 그 이 저"
)
_NOT_DESCRIBING = frozenset(_NOT_DESCRIBING_WORDS.split())


def _called_so(
    request: str, mention: str, namesakes: Sequence[str], snap: BlockSnapshot
) -> Sequence[str]:
    """The namesake the request calls by a word said just before the name, as the
    records call only that one, at least twice ("신입 민채 씨" where "신입 민채 씨는 교육
    기간이라" and "신입 민채 씨 첫 주 어땠어요?" were said to 탁민채 and never where the
    other 민채 takes part). All of them when the request says no such word or the records
    call several, or none, so."""
    words = _NAME_WORD.findall(request.casefold())
    first = mention.split()[0]
    before = {
        w
        for w, name in itertools.pairwise(words)
        if name.startswith(first)  # "민채", "민채씨", "Lorenzo's"
        and w not in _NOT_DESCRIBING
        and w != first
        and len(w) > 1
        and not w.isdigit()
        and w not in snap.person_words
    }
    if not before:
        return namesakes
    norm = {e: normalize_name(e) for e in namesakes}
    phrase = re.compile(
        "(?:" + "|".join(map(re.escape, sorted(before))) + r")\s?" + re.escape(first)
    )
    called: dict[str, int] = {}
    for e in namesakes:
        for i in snap.by_person.get(norm[e], ()):
            if not phrase.search(snap.records.texts[i].casefold()):
                continue
            present = snap.present(i)
            if [o for o in namesakes if norm[o] in present] == [e]:
                called[e] = called.get(e, 0) + 1
    # Said so twice at least: one message may speak of someone else to the namesake who
    # is there ("지점장님, 창구 미선씨가 …" said to the other 미선).
    if len(called) != 1 or max(called.values()) < _CALLED_SO_TIMES:
        return namesakes
    return [e for e in namesakes if e in called]


_CALLED_SO_TIMES = 2


def _cues(
    request: str,
    mention: str,
    namesakes: Sequence[str],
    snap: BlockSnapshot,
    topic: Sequence[str],
    apart: Sequence[str] = (),
) -> dict[str, int]:
    """For each namesake, how many words said beside the mention ("Yusuf from lumber")
    are found in what memory holds about that namesake (with ``apart``, only where none
    of those people take part)."""
    near = _beside(request, mention)
    words = [w for w in topic if w in near]
    return {e: sum(w in snap.person_text(e, apart) for w in words) for e in namesakes}


def _said_anywhere(snap: BlockSnapshot, word: str) -> bool:
    terms = snap.index.tokenize(word)
    return bool(terms) and all(t in snap.index.vocab for t in terms)


# Words that introduce who someone is after their name: "Noor from Cellar 9", "Fiona the
# coach", "the Theo who runs the place".
_AFTER_NAME = frozenset(["from", "at", "in", "of", "on", "with", "the", "who", "who's", "that"])


_POSSESSIVE = re.compile(r"['’]s$")


def _beside(request: str, mention: str) -> str:
    """The words that say who a mention is, case-folded: up to three before the name
    ("our photographer Mei", "대학생 준호") and the title or "from ..." phrase after it
    ("동현 관장님", "Mei from the metro desk"). What the request asks about is further
    away ("when's Sarah's birthday" names no Sarah by "birthday")."""
    words = _NAME_WORD.findall(request.casefold())
    first = mention.split()[0]
    out: list[str] = []
    for i, w in enumerate(words):
        # "little Mason's rating": the possessive is the name too.
        if not (_POSSESSIVE.sub("", w) == first or (has_hangul(w) and w.startswith(first))):
            continue
        out += words[max(0, i - 3) : i]
        if has_hangul(w):
            out.append(w[len(first) :])  # 동현쌤, 민재씨: the title written on
            if w == first:  # "동현 관장님"; after "도현이", "정민씨" comes what is asked
                out += words[i + 1 : i + 2]
        elif i + 1 < len(words) and words[i + 1] in _AFTER_NAME:
            out += words[i + 1 : i + 5]
    return " ".join(out)


def read_gate(
    req: BlockRequest,
    snap: BlockSnapshot,
    ranking: Ranking,
    posterior: Mapping[str, float],
    excluded: set[str],
    policy: GatePolicy,
) -> Block:
    """Serve only lines that answer the request as read: a value of the asked type, on
    the asked topic (by words, or by meaning with an embedder), of the person asked
    about. Facts are served where the person has any; else (plain text, nothing keyed)
    the newest raw record on the topic. ``excluded`` are people whose facts are never
    served (namesakes are told apart here, by ``_who_is_asked``)."""
    mentions = mention_candidates(req.request, snap.people, snap.families, snap.called)
    # A Latin name written in Hangul ("소피랑") or a short form ("Ros") names someone; it is
    # no topic word.
    rendered = frozenset(m for m in mentions if m not in snap.person_words)
    reading = read_request(
        req.request, snap.person_words | rendered if rendered else snap.person_words
    )
    posterior = dict(posterior)
    topic = reading.topic + reading.titles
    who = _who_is_asked(req, snap, topic, posterior, req.options.tau, mentions)
    if who.open:
        return _by_answer(req, snap, ranking, reading, who, posterior, excluded, policy)
    told_apart = _told_apart(mentions, who.people, req.partner)
    return _answer(
        req, snap, ranking, reading, set(who.people), posterior, excluded | told_apart, policy
    )


def _told_apart(
    mentions: Mapping[str, Sequence[str]], chosen: frozenset[str], partner: str
) -> set[str]:
    """The namesakes a mention could have meant besides the one chosen: a plain record
    they take part in without the chosen one is not the chosen one's (plain text has no
    subject to filter by; "Ezra from the night desk" is not served the other Ezra's
    meeting with the partner). Never the partner, who takes part in all of theirs. Only
    of a few namesakes (``_FEW_NAMESAKES``): a thousand strangers who share a given name
    are not walked for each request."""
    return {
        e
        for es in mentions.values()
        if 1 < len(es) <= _FEW_NAMESAKES and any(normalize_name(e) in chosen for e in es)
        for e in es
        if normalize_name(e) not in chosen and normalize_name(e) != normalize_name(partner)
    }


def _by_answer(
    req: BlockRequest,
    snap: BlockSnapshot,
    ranking: Ranking,
    reading: RequestReading,
    who: _Asked,
    posterior: dict[str, float],
    excluded: set[str],
    policy: GatePolicy,
) -> Block:
    """Namesakes nothing told apart: the one whose memory answers the request when only
    one of them has anything that could ("how long does Mabel need to build a wheel?"
    of two Mabels, only one of whom said how long anything takes), or when the words of
    the request name only one of their facts (``_could_answer``); else unclear."""
    unclear = Block(
        "",
        [],
        abstained=True,
        posterior=posterior,
        reason=f"unclear which of {', '.join(sorted(who.open))} is meant",
    )
    if len(who.open) > _FEW_NAMESAKES or reading.task:
        return unclear
    names = [normalize_name(e) for e in who.open]
    fit = {n: _could_answer(req, snap, reading, n, policy) for n in names}
    best = max(fit.values())
    could = [n for n in names if fit[n] == best and best > 0]
    if len(could) != 1:
        return unclear
    asked = {*who.people, could[0]}
    block = _answer(req, snap, ranking, reading, asked, posterior, excluded, policy)
    return block if block.lines else unclear


def _could_answer(
    req: BlockRequest, snap: BlockSnapshot, reading: RequestReading, person: str, policy: GatePolicy
) -> float:
    """How well anything of a person's could answer the request: 0 when nothing could;
    else 1, plus the number of the request's topic words found with a current fact of the
    asked type (not of another kind) when two or more are: "where does Lucinda run the
    rock band?" is the Lucinda whose teaching room was said with "rock band". With no
    facts, 1 when a record of theirs states a value of the asked type."""
    records = [snap.records[i] for i in snap.by_subject.get(person, ())]
    facts = [
        (r, subj, rel, value)
        for r in records
        for subj, rel, value in r.facts
        if normalize_name(subj) == person
    ]
    if facts:
        other, matches = _read_facts(req, snap, reading, facts, policy)
        fits = [m for o, m in zip(other, matches, strict=True) if not o and (m.ok or m.typed)]
        # One word in common is chance ("open the doors" said by one of two Paulines);
        # two ("rock band") tell them apart.
        hits = max((round(m.coverage * len(reading.topic)) for m in fits if m.ok), default=0)
        return (1.0 + (hits if hits >= 2 else 0)) if fits else 0.0
    return float(
        any(
            accepts(reading, text_types(snap.records[i].text))
            for i in snap.by_person.get(person, ())
        )
    )


def _answer(
    req: BlockRequest,
    snap: BlockSnapshot,
    ranking: Ranking,
    reading: RequestReading,
    asked: set[str],
    posterior: Mapping[str, float],
    excluded: set[str],
    policy: GatePolicy,
) -> Block:
    """The block for a request about ``asked`` (none named: the partner)."""
    # A name no record says ("when does Marco land?"); a word the records use is some
    # thing or someone memory has heard of ("is Shingrix in stock?").
    unknown = [n for n in reading.unknown_people if not _said_anywhere(snap, n)]
    if not asked and unknown:
        return _empty(f"nothing is stored about {unknown[0]}", posterior)
    if reading.task:
        return _empty("a task for the assistant, not a question to memory", posterior)
    people = asked or {normalize_name(req.partner)}
    if asked and req.partner and _FIRST_PERSON.search(req.request):
        # "when's my appointment with Karim": the partner is asked about too.
        people = asked = {*asked, normalize_name(req.partner)}
    own = [i for person in people for i in snap.by_subject.get(person, ())]
    pool: dict[int, float]
    records: dict[int, ActiveRecord] = {}
    if asked and ranking.whole:
        # Only the named people's facts may answer: the ranking orders their records,
        # and the rest of the namespace is not ranked.
        pool = ranking.scores(own)
    else:
        pool = {r.pos: s for r, s in ranking.rows}
        records = {r.pos: r for r, _ in ranking.rows}
    for i in own:
        r = snap.records[i]
        records.setdefault(r.pos, r)
        pool.setdefault(r.pos, 0.0)
    ex = {normalize_name(e) for e in excluded}
    facts = [
        (r, subj, rel, value)
        for r in records.values()
        for subj, rel, value in r.facts
        if normalize_name(subj) not in ex and (not asked or normalize_name(subj) in asked)
    ]
    read = None
    if not asked:
        facts, read = _with_nearest(req, snap, reading, facts, policy, ex)
    if not facts and not any(snap.by_subject.get(p) for p in people):
        return _plain_text(
            req, snap, reading, people, ex, policy, posterior, ranking.rows, bool(asked)
        )
    partner = None if asked else normalize_name(req.partner)
    return _keyed(req, snap, reading, facts, pool, policy, posterior, partner, read)


def _with_nearest(
    req: BlockRequest,
    snap: BlockSnapshot,
    reading: RequestReading,
    facts: list[tuple[ActiveRecord, str, str, str]],
    policy: GatePolicy,
    excluded: set[str],
) -> tuple[list[tuple[ActiveRecord, str, str, str]], _Read | None]:
    """Candidates by meaning besides words: a request that names no one may be answered
    by a fact none of its words found ("Where's the big tournament this year?" and a
    ``championship venue``), so the namespace's facts nearest to it in meaning join
    those the words found, unless words already found one that answers (then nothing is
    embedded). The gate then decides as for any candidate: type, topic and person. In
    namespaces of up to ``NEAREST_LIMIT`` records, whose facts' vectors are read once per
    snapshot (once the keeper holds all but a few of them). With the facts, how they
    were read (``_read_facts``) when no fact joined them, so it is not read twice."""
    meaning = policy.meaning
    if (
        meaning is None
        or reading.task
        or not snap.by_subject
        or len(snap.records.texts) > NEAREST_LIMIT
    ):
        return facts, None
    read = _read_facts(req, snap, reading, facts, policy)
    if any(m.ok for m in read[1]):
        return facts, read

    def kept_or_few(texts: list[str]) -> np.ndarray | None:
        # Vectors the keeper has not kept yet are embedded here only when they are few
        # (a write just made), never a namespace's worth inside one request.
        missing = sum(v is None for v in meaning.known(texts))
        return meaning.passages(texts) if missing <= NEAREST_EMBED else None

    found = snap.fact_vectors(meaning.model, kept_or_few, fact_line)
    if found is None or not len(found[0]):
        return facts, read
    where, lines, texts = found
    q = meaning.query(req.request)
    close = np.maximum(lines @ q, texts @ q)
    have = {r.pos for r, *_ in facts}
    out = list(facts)
    for j in np.argsort(-close, kind="stable")[:NEAREST_FACTS]:
        r = snap.records[int(where[j])]
        if r.pos not in have:
            have.add(r.pos)
            out += [
                (r, subj, rel, value)
                for subj, rel, value in r.facts
                if normalize_name(subj) not in excluded
            ]
    return out, (read if len(out) == len(facts) else None)


# The partner speaking of themselves: "my", "we", "내", "제", "우리".
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i'd|i've|i'll|me|my|mine|we|we're|our|us)\b|"
    r"(?<![가-힣])(?:내가|내|나는|나도|나한테|난|제가|제|저는|저도|저한테|우리|저희)(?![가-힣])",
    re.I,
)


def _names_them_together(text: str, part: str, namesakes: Sequence[str]) -> bool:
    """Whether a record names several of the people called ``part`` ("both Hugos", "나리
    팀장, 나리 조장 둘 다 고생했어요", "라온이들"): it says nothing of one of them alone."""
    low = text.casefold()
    if has_hangul(part):
        if re.search(re.escape(part) + r"\s?(?:이|씨|님|쌤|샘)?들", low):
            return True
        spots = [m.start() for m in re.finditer(re.escape(part), low)]
    else:
        if re.search(rf"\b{re.escape(part)}(?:s|es)\b", low):
            return True
        spots = [m.start() for m in re.finditer(rf"\b{re.escape(part)}\b", low)]
    if len(spots) < 2:
        return False
    # Each time the name is said, whose full name it is part of there (None: only the
    # shared name is said).
    whose: set[str | None] = set()
    for at in spots:
        full = [
            n
            for n in namesakes
            if (i := normalize_name(n).find(part)) >= 0
            and low.startswith(normalize_name(n), at - i)
        ]
        whose.add(full[0] if len(full) == 1 else None)
    return len(whose) > 1 or None in whose


def _names_any(text: str, parts: set[str]) -> bool:
    words = {normalize_name(w) for w in _NAME_WORD.findall(text)}
    return bool(words & parts) or any(p in text for p in parts if has_hangul(p))


_NAME_WORD = re.compile(r"[\w'’]+")


def _empty(reason: str, posterior: Mapping[str, float]) -> Block:
    return Block("", [], abstained=True, reason=reason, posterior=dict(posterior))


def _replaces(old: ActiveRecord, new: ActiveRecord) -> bool:
    """Whether a later message can replace an earlier one: the same speaker or the same
    people talking, and a value of a kind the earlier one stated (any, when the earlier
    one states a place or a thing, which have no form to recognise)."""
    same_talk = (old.speaker and old.speaker == new.speaker) or (
        set(old.participants) == set(new.participants) and old.participants
    )
    kinds = text_types(old.text) - FORMLESS_TYPES
    return bool(same_talk) and (not kinds or bool(kinds & text_types(new.text)))


def _served(lines: list[BlockLine], req: BlockRequest, posterior: Mapping[str, float]) -> Block:
    text, kept = render_block(lines[: req.options.k], req.options.k, req.options.max_chars)
    return Block(
        text,
        kept,
        abstained=not kept,
        posterior=dict(posterior),
        reason="" if kept else "nothing matched",
    )


# For each fact, whether it is of another kind, and how it matches (``_read_facts``).
_Read = tuple[list[bool], list[FactMatch]]


def _read_facts(
    req: BlockRequest,
    snap: BlockSnapshot,
    reading: RequestReading,
    facts: list[tuple[ActiveRecord, str, str, str]],
    policy: GatePolicy,
) -> _Read:
    """For each fact, whether the request asks about another kind of its thing, and how
    the fact matches the request as read."""
    abouts = [about(policy, rel, r.text) for r, _subj, rel, _value in facts]

    # "the petty cash card" is not the fuel card: a fact of another kind is no answer,
    # by words or by meaning. Words find the two kinds; meaning tells another kind from
    # a synonym ("the spare camera" is the backup camera).
    other = _other_kinds(policy, req.request, [rel for _r, _s, rel, _v in facts], abouts, snap)
    # "주차 말고 관광버스": the parking's fact is what the request set aside; "the summer
    # budget" is not the spring one.
    other = [
        o
        or sets_aside(reading, a)
        or another_period(req.request, rel)
        or the_other_end(req.request, rel)
        # A change question may quote the old number ("did it change from first tuesdays?").
        or (
            not reading.change
            and another_numbered(req.request, a.replace(value, " ") if value else a)
        )
        for o, a, (_r, _s, rel, value) in zip(other, abouts, facts, strict=True)
    ]

    def match(i: int) -> FactMatch:
        if other[i]:
            return FactMatch(False, 0.0, "it is about another kind")
        _r, _subj, rel, value = facts[i]
        declared = policy.registry.value_types.get(normalize_relation(rel))
        vtype = value_type(value, declared)
        if not declared and normalize_name(value) in snap.person_names:
            vtype = "person"  # whatever its words look like ("Sunday Adeyemi")
        named = frozenset() if declared else relation_types(rel)
        vtype, named = settle_types(vtype, named, value)
        return match_fact(reading, vtype, abouts[i], value, named)

    # Typing a value reads it with every value recognizer: first only the facts the
    # request's words name. When one of them answers, the others cannot be served.
    found: dict[int, FactMatch] = {}
    if reading.topic and not reading.task:
        found = {i: match(i) for i, a in enumerate(abouts) if names_topic(reading, a)}
    if any(m.ok for m in found.values()):
        unnamed = FactMatch(False, 0.0, "about something else")
        matches = [found.get(i, unnamed) for i in range(len(facts))]
    else:
        matches = [found[i] if i in found else match(i) for i in range(len(facts))]
    return other, matches


def _keyed(
    req: BlockRequest,
    snap: BlockSnapshot,
    reading: RequestReading,
    facts: list[tuple[ActiveRecord, str, str, str]],
    pool: Mapping[int, float],
    policy: GatePolicy,
    posterior: Mapping[str, float],
    partner: str | None = None,
    read: _Read | None = None,
) -> Block:
    """The person's current facts that answer the request. ``partner`` (normalized) when
    the request names no one: of lines that answer equally well, the partner's own are
    the ones meant ("제가 맡은 파트 뭐였죠?" from one of two 수진s). ``read``: how
    ``facts`` were read already (``_read_facts``), if they were."""
    why = "no current line states what the request asks"
    other, matches = read or _read_facts(req, snap, reading, facts, policy)
    for m in matches:
        if not m.ok and not m.typed and m.reason:
            why = f"no current line answers: {m.reason}"
    # Where words decide (a line of the asked type on the asked topic), no embedding:
    # the vectors are read only when something asks for them, and once.
    rows = functools.cache(
        lambda: _meaning_rows(
            policy,
            req.request,
            [fact_line(subj, rel, value) for _r, subj, rel, value in facts],
            [r.text for r, *_ in facts],
        )
    )
    by_words = any(m.ok for m in matches)
    vectors = None if by_words else rows()
    closeness = [] if vectors is None else _closeness_of(vectors)
    chosen: list[tuple[float, float, int, ActiveRecord]] = []
    typed = [i for i, m in enumerate(matches) if m.typed or (m.ok and not reading.asked)]
    nearest = max(closeness, default=0.0)
    best_typed = max(typed, key=closeness.__getitem__) if closeness and typed else -1
    floor = MEANING_FLOOR if reading.asked else MEANING_FLOOR + UNTYPED_EXTRA
    floor += KEYED_KOREAN_SHIFT if has_hangul(req.request) else 0.0
    for i, ((r, *_), m) in enumerate(zip(facts, matches, strict=True)):
        if m.ok:
            score = m.coverage * WORD_WEIGHT + (closeness[i] if closeness else m.coverage)
            chosen.append((score, pool.get(r.pos, 0.0), r.pos, r))
        elif (
            not other[i]
            and i == best_typed
            and closeness[i] >= floor
            and closeness[i] >= nearest - NEAREST_SLACK
            and (m.typed or _asks_anything(reading))
        ):
            chosen.append((closeness[i], pool.get(r.pos, 0.0), r.pos, r))
    chosen.sort(key=lambda c: (c[0], c[1], c[2]), reverse=True)
    verdict = _head_verdict(req, reading, facts, matches, other, chosen, rows, policy)
    if verdict == "none":
        return _empty("the answer head reads no answer in the best line", posterior)
    if isinstance(verdict, int):
        r = facts[verdict][0]
        chosen = [(0.0, pool.get(r.pos, 0.0), r.pos, r)]  # the one line served
    if not chosen:
        return _empty(why, posterior)
    best = chosen[0][0]
    lines = [BlockLine(r, s) for score, s, _pos, r in chosen if score >= best - 1e-9]
    if partner is not None and len(lines) > 1:
        lines = _partners_own(lines, partner)
    return _served(lines, req, posterior)


def _partners_own(lines: list[BlockLine], partner: str) -> list[BlockLine]:
    """Of lines that answer equally well, another person's under a relation the
    partner's own lines hold is left out: a request that names no one asks about the
    partner's own ("제 휴가 며칠이죠?" of two 재호s with a vacation each)."""
    theirs = {
        normalize_relation(rel)
        for ln in lines
        for subj, rel, _ in ln.record.facts
        if normalize_name(subj) == partner
    }
    if not theirs:
        return lines
    return [
        ln
        for ln in lines
        if any(
            normalize_name(subj) == partner or normalize_relation(rel) not in theirs
            for subj, rel, _ in ln.record.facts
        )
    ]


# The request's vector, its facts' lines' and their records'.
_Rows = tuple[np.ndarray, np.ndarray, np.ndarray]


def _head_verdict(
    req: BlockRequest,
    reading: RequestReading,
    facts: list[tuple[ActiveRecord, str, str, str]],
    matches: list[FactMatch],
    other: list[bool],
    chosen: list[tuple[float, float, int, ActiveRecord]],
    rows: Callable[[], _Rows | None],
    policy: GatePolicy,
) -> str | int | None:
    """The answer head on the gate's decision (``keyed_pick``): None leaves it, an index
    is the fact to serve instead, "none" serves nothing."""
    top = chosen[0][3] if chosen else None
    i_top = next((i for i, (r, *_) in enumerate(facts) if r is top), -1)
    by_all_words = i_top >= 0 and matches[i_top].ok and matches[i_top].coverage >= 1.0
    observing = head_mod.observed()
    head = policy.answer_head
    if not observing and (head is None or by_all_words):
        return None
    vectors = rows()
    if vectors is None:
        return None
    korean = has_hangul(req.request)
    eligible = np.array(
        [not o and (m.ok or m.typed) for o, m in zip(other, matches, strict=True)], dtype=bool
    )
    x = head_mod.keyed_features(
        *vectors,
        [m.ok for m in matches],
        [m.typed for m in matches],
        [m.coverage for m in matches],
        korean,
        bool(reading.asked),
        eligible,
    )
    if observing:
        head_mod.observe(
            HeadSample(
                req.request,
                korean,
                x,
                eligible,
                tuple(r.record_id for r, *_ in facts),
                top.record_id if top is not None else None,
                by_all_words,
            )
        )
    if head is None or by_all_words:
        return None
    weights = head.for_request(korean)
    p = weights.probability(x)
    return keyed_pick(p, i_top, by_all_words, eligible, weights.veto, weights.serve)


def _other_kinds(
    policy: GatePolicy,
    request: str,
    relations: list[str],
    abouts: list[str],
    snap: BlockSnapshot,
) -> list[bool]:
    """For each fact, whether the request asks about another kind of its thing: only
    with the bundled e5, whose closeness ``KINDS_APART`` was chosen for (without meaning
    a synonym looks like another kind, so nothing is refused)."""
    if has_hangul(request):
        # Korean by words alone (``another_korean_kind``), with or without meaning.
        nouns = korean_kind_nouns(request, snap.person_words)
        return [
            another_korean_kind(nouns, request, rel, about) is not None
            for rel, about in zip(relations, abouts, strict=True)
        ]
    other = [False] * len(relations)
    if policy.meaning is None or policy.meaning.model != BundledE5.name:
        return other
    asked = kind_words(request, snap.person_words)
    pairs: dict[int, tuple[str, str]] = {}
    for i, (rel, about) in enumerate(zip(relations, abouts, strict=True)):
        found = another_kind(asked, rel, about)
        if found is not None:
            pairs[i] = found
    if not pairs:
        return other
    phrases = list(dict.fromkeys(x for p in pairs.values() for x in p))
    rows = dict(zip(phrases, policy.meaning.passages(phrases), strict=True))
    for i, (asked_phrase, stored_phrase) in pairs.items():
        other[i] = float(rows[asked_phrase] @ rows[stored_phrase]) < KINDS_APART
    return other


def _asks_anything(reading: RequestReading) -> bool:
    return bool(reading.topic) and not reading.task


def _meaning_rows(
    policy: GatePolicy, request: str, lines: list[str], texts: list[str]
) -> _Rows | None:
    """The request's vector and each fact's line's and record's; None without an
    embedder."""
    if policy.meaning is None or not lines:
        return None
    q = policy.meaning.query(request)
    rows = policy.meaning.passages([*lines, *texts])
    n = len(lines)
    return q, rows[:n], rows[n:]


def _closeness_of(rows: _Rows) -> list[float]:
    """Each fact's closeness in meaning to the request: the larger of its line's and its
    record's cosine."""
    q, lines, texts = rows
    return [float(max(a, b)) for a, b in zip(lines @ q, texts @ q, strict=True)]


def _plain_text(
    req: BlockRequest,
    snap: BlockSnapshot,
    reading: RequestReading,
    people: set[str],
    ex: set[str],
    policy: GatePolicy,
    posterior: Mapping[str, float],
    ranked: list[tuple[ActiveRecord, float]],
    named: bool,
) -> Block:
    """Nothing keyed about the person: the newest of their raw records that answers the
    request — of the asked type, on its topic by words or by meaning — never one a
    newer record on the same topic replaced. Their records: those they took part in,
    and those of the ranking that name them; a request that names no one ("when are the
    keelboats coming out?") may be answered by any record of the ranking."""
    found = {snap.records[i] for p in people for i in snap.by_person.get(p, ())}
    if not named:
        found |= {r for r, _ in ranked}
    # A name part a namesake shares ("Omar") names either of them: not theirs alone.
    parts = {
        part
        for p in people
        for part in name_parts(p)
        if len(part) > 1 and len(snap.people.get(part, ())) <= 1
    }
    found |= {r for r, _ in ranked if _names_any(r.text, parts)}
    shared = {
        part: snap.people[part]
        for p in (people if named else ())
        for part in name_parts(p)
        if len(part) > 1 and len(snap.people.get(part, ())) > 1
    }
    # A record an excluded namesake takes part in is theirs, unless someone asked about
    # by name takes part too ("I put 486 km on" said to the other Mathieu).
    named_people = people - {normalize_name(req.partner)}
    candidates = sorted(
        (
            r
            for r in found
            if (
                not ((taking := {normalize_name(x) for x in r.participants}) & ex)
                or taking & named_people
            )
            and not any(_names_them_together(r.text, part, n) for part, n in shared.items())
        ),
        key=lambda r: r.pos,
    )
    stated = {r.pos: text_types(r.text) for r in candidates}
    typed = [
        r for r in candidates if accepts(reading, stated[r.pos]) and not sets_aside(reading, r.text)
    ]
    if not typed or (not reading.asked and not reading.topic):
        return _empty("no record of theirs states what the request asks", posterior)
    # A record is matched as stating the types its values have the form of: "the wedding
    # is Saturday September 12" answers "when's the wedding?" by its words too. A place
    # or a person has no form, so words alone never say a record names one.
    words = [
        match_fact(reading, "text", r.text, r.text, stated[r.pos] - FORMLESS_TYPES) for r in typed
    ]
    q = vectors = np.zeros((0, 0), dtype=np.float32)
    if policy.meaning is None:
        closeness = [m.coverage if m.ok else 0.0 for m in words]
        floor = 1e-9
    else:
        q = policy.meaning.query(req.request)
        vectors = policy.meaning.passages([r.text for r in typed])
        closeness = [float(x) for x in vectors @ q]
        floor = PLAIN_FLOOR + (PLAIN_KOREAN_SHIFT if has_hangul(req.request) else 0.0)
    scores = [
        c + (m.coverage * WORD_WEIGHT if m.ok else 0.0)
        for c, m in zip(closeness, words, strict=True)
    ]
    scored = [
        (scores[i], i)
        for i, (c, m) in enumerate(zip(closeness, words, strict=True))
        if m.ok or c >= floor
    ]
    verdict: str | int | None = None
    if policy.meaning is not None:
        verdict = _plain_head_verdict(
            req, reading, typed, words, scored, q, vectors, policy, people, parts
        )
        if verdict == "none":
            return _empty("the answer head reads no answer in the records", posterior)
        if isinstance(verdict, int):
            # The head's record leads; the others stay, for the newest on its topic.
            scored = [(scores[verdict], verdict), *(s for s in scored if s[1] != verdict)]
    if not scored:
        return _empty("no record of theirs is about what the request asks", posterior)
    best_score, best = scored[0] if isinstance(verdict, int) else max(scored)
    # The newest record on the best one's topic: what was said last stands.
    pick = best
    if policy.meaning is not None:
        same = vectors @ vectors[best]
        shift = PLAIN_KOREAN_SHIFT if has_hangul(typed[best].text) else 0.0
        # "is it still Wesley Hall?" quotes the old value: its words favour the older
        # record, so a change question compares the records by meaning alone, all of
        # them, not only those its words or the floor let in.
        near = [(closeness[i], i) for i in range(len(typed))] if reading.change else scored
        least = (closeness[best] if reading.change else best_score) - SAME_TOPIC_SLACK
        for score, i in near:
            if same[i] >= SAME_TOPIC + shift and score >= least and typed[i].pos > typed[pick].pos:
                pick = i
        # A later message that says it replaces something, on the same topic, wins even
        # when worded unlike the request ("parts delayed, looking like Friday noon now"):
        # said by the same person or in the same conversation, and stating a value of the
        # same kind (a time for a time), not another plan announced later.
        update = (UPDATE_ASKED if reading.change else UPDATE_TOPIC) + shift
        later = vectors @ vectors[pick]
        for i, r in enumerate(typed):
            if (
                r.pos > typed[pick].pos
                and _takes_up(typed[pick], r, float(later[i]), update, snap.person_words)
                and states_a_change(r.text)
                and _replaces(typed[pick], r)
            ):
                pick = i
        # ... and so does one the request's words did not find ("160만원까지 조정 가능"
        # after "합의금 130만원"): the same speaker's later messages are read too.
        newer = _said_later(snap, typed[pick], {r.pos for r in typed}, people)
        if newer:
            took = policy.meaning.passages([r.text for r in newer]) @ vectors[pick]
            for r, close in zip(newer, took, strict=True):
                if _takes_up(typed[pick], r, float(close), update, snap.person_words) and accepts(
                    reading, text_types(r.text)
                ):
                    return _served([BlockLine(r, best_score)], req, posterior)
    return _served([BlockLine(typed[pick], best_score)], req, posterior)


def _takes_up(
    old: ActiveRecord, new: ActiveRecord, close: float, floor: float, names: frozenset[str]
) -> bool:
    """Whether a later plain record is on an earlier one's topic: this close in meaning,
    or taking up what it said (``restates``)."""
    return close >= floor or restates(old.text, new.text, names)


def _said_later(
    snap: BlockSnapshot, record: ActiveRecord, seen: set[int], people: set[str]
) -> list[ActiveRecord]:
    """The later records, newest first, by ``record``'s speaker that say they change
    something and can replace it (``_replaces``), besides those ``seen``: in the same
    conversation, or in one the ``people`` asked about take part in (the nurse's later
    message to the other 봉식 about his date replaces nothing of this one's)."""
    if not record.speaker:
        return []
    talk = set(record.participants)
    out = [
        r
        for i in snap.by_person.get(normalize_name(record.speaker), ())
        if (r := snap.records[i]).pos > record.pos
        and r.pos not in seen
        and (set(r.participants) == talk or bool(snap.present(i) & people))
        and states_a_change(r.text)
        and _replaces(record, r)
    ]
    return sorted(out, key=lambda r: r.pos, reverse=True)[:_LATER_READ]


# The speaker's later messages read for a replacement of a plain record, at most.
_LATER_READ = 8


def _plain_head_verdict(
    req: BlockRequest,
    reading: RequestReading,
    typed: list[ActiveRecord],
    words: list[FactMatch],
    scored: list[tuple[float, int]],
    query: np.ndarray,
    vectors: np.ndarray,
    policy: GatePolicy,
    people: set[str],
    parts: set[str],
) -> str | int | None:
    """The plain-text answer head (``plain_pick``): None leaves the gate's decision, an
    index is the record to serve instead, "none" serves nothing (never where words found
    half the topic or more in the gate's record, of a value of the asked form)."""
    top = max(scored)[1] if scored else -1
    by_all_words = top >= 0 and words[top].ok and words[top].coverage >= 1.0
    observing = head_mod.observed()
    head = policy.plain_head
    if not observing and (head is None or by_all_words):
        return None
    korean = has_hangul(req.request)
    newest = max(r.pos for r in typed)
    x = head_mod.plain_features(
        query,
        vectors,
        [m.ok for m in words],
        [m.coverage for m in words],
        korean,
        bool(reading.asked),
        [r.pos == newest for r in typed],
        [normalize_name(r.speaker or "") in people for r in typed],
        [_names_any(r.text, parts) for r in typed],
        [states_a_change(r.text) for r in typed],
    )
    if observing:
        head_mod.observe(
            HeadSample(
                req.request,
                korean,
                x,
                np.ones(len(typed), dtype=bool),
                tuple(r.record_id for r in typed),
                typed[top].record_id if top >= 0 else None,
                by_all_words,
                plain=True,
            )
        )
    if head is None or by_all_words:
        return None
    weights = head.for_request(korean)
    verdict = plain_pick(weights.probability(x), top, by_all_words, weights.serve)
    if (
        verdict == "none"
        and top >= 0
        and words[top].ok
        and words[top].coverage >= 0.5
        and reading.asked
        and accepts(reading, text_types(typed[top].text) - FORMLESS_TYPES)
    ):
        # Words found half the topic or more in a record whose values have the asked
        # form: an answer the head alone does not refuse.
        return None
    return verdict
