"""Slot rules: a key only when entity, slot noun and a value of the slot's type all occur.

This is the rule extractor of "Stale, Misattributed, or Late". A missed key leaves a stale
value visible (the user can notice); a wrong key silently closes somebody's current value
(nobody notices). So
the rules never guess: a sentence yields a fact only when it names exactly one
registered entity, exactly one slot (by its noun) and exactly one value of that slot's
type. Everything else is ``unresolved`` (the record is kept raw and always shown to the
reader) or ``no_fact``:

- no slot noun, or no value of the slot's type (incl. a slot noun with only a value of
  another type) → ``no_fact``;
- two slots that could each take a value (shared noun "meeting" with both a time and a
  room, or "launch deadline" with one date) → ``unresolved`` (ambiguous slot);
- two different values of the slot's type ("from 3pm to 4pm") → ``unresolved``;
- negation ("not", "isn't", "안", "아니") → ``unresolved``;
- no registered entity (a pronoun such as he/she/they/it, 그/그녀/걔, or an unknown
  name) or two registered entities → ``unresolved``.

Value patterns tolerate spacing ("27E 호", "71 만 원"): the study's Korean reproduction
lost most of its recall to a rewriter that inserted spaces. Korean mentions are found with the
morphological analyzer, so particles and honorifics on a name ("김민준님") do not hide it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

from graphmem.domain.model import Fact, Intent, ParseStatus, Record
from graphmem.extract.base import Extraction
from graphmem.language.base import Analyzer, NameSpan, Token
from graphmem.language.detect import AutoAnalyzer
from graphmem.language.text import has_hangul, longest_spans

__all__ = [
    "DEFAULT_SLOTS",
    "SentenceParse",
    "SlotRuleExtractor",
    "SlotSpec",
    "ValueSpan",
    "ValueType",
    "find_slot_nouns",
    "find_values",
]

ValueType = Literal["time", "room", "date", "money"]
VALUE_TYPES: tuple[str, ...] = get_args(ValueType)


@dataclass(frozen=True)
class SlotSpec:
    """One slot: its relation name, the nouns that announce it, and its value type."""

    name: str
    nouns_en: tuple[str, ...]
    nouns_ko: tuple[str, ...]
    value_type: ValueType

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("slot name must not be empty")
        if self.value_type not in VALUE_TYPES:
            raise ValueError(
                f"slot {self.name!r}: value_type must be one of {VALUE_TYPES}, "
                f"got {self.value_type!r}"
            )
        object.__setattr__(self, "nouns_en", tuple(self.nouns_en))
        object.__setattr__(self, "nouns_ko", tuple(self.nouns_ko))
        if not (self.nouns_en or self.nouns_ko):
            raise ValueError(f"slot {self.name!r} needs at least one noun")


_MEETING_EN = ("meeting", "standup", "stand-up", "sync")
_MEETING_KO = ("회의", "미팅", "스탠드업", "싱크")

# The six slots of the block study. "meeting" announces both the time and the room; the value type
# decides which, and a sentence with both a time and a room stays unresolved.
DEFAULT_SLOTS: tuple[SlotSpec, ...] = (
    SlotSpec(
        "meeting time",
        ("meeting time", *_MEETING_EN),
        ("회의 시간", "미팅 시간", *_MEETING_KO),
        "time",
    ),
    SlotSpec(
        "meeting room",
        ("meeting room", "conference room", *_MEETING_EN),
        ("회의실", "미팅룸", "회의 장소", *_MEETING_KO),
        "room",
    ),
    SlotSpec(
        "deadline",
        ("deadline", "due date", "due"),
        ("마감일", "마감 기한", "마감", "기한", "데드라인", "납기"),
        "date",
    ),
    SlotSpec(
        "launch date",
        (
            "launch date",
            "release date",
            "ship date",
            "go-live date",
            "go-live",
            "launch",
            "release",
        ),
        ("출시일", "출시 날짜", "출시", "런칭", "론칭"),
        "date",
    ),
    SlotSpec(
        "day rate",
        ("day rate", "daily rate", "rate per day", "per-day rate"),
        ("일당", "일급", "일일 단가", "하루 단가"),
        "money",
    ),
    SlotSpec(
        "budget cap",
        (
            "budget cap",
            "budget limit",
            "budget ceiling",
            "spending cap",
            "spending limit",
            "budget",
        ),
        ("예산 한도", "예산 상한", "예산"),
        "money",
    ),
)

# ---------------------------------------------------------------------------- values

_MONTHS = (
    r"(?:(?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)|May)"  # not "may"
)
_CODE = r"(?:[A-Z]|\d)[A-Za-z0-9-]*"

_VALUE_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "time": tuple(
        re.compile(p)
        for p in (
            # 3pm
            r"(?<![\d:.])(?:1[0-2]|0?[1-9])(?::[0-5]\d)?\s*(?i:[ap]\.m\.|[ap]\.?m)(?![A-Za-z])",
            r"(?<![\d:.])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:])",  # 15:30
            r"(?<!\d)(?:1[0-2]|0?[1-9])\s*o['’]clock",
            r"\b(?i:noon|midnight)\b",
            # 오후 3시, 3시 반, 15시 30분 — but not 3시간 (three hours)
            r"(?:(?:오전|오후|아침|저녁|밤|낮|새벽)\s*)?(?<!\d)(?:[01]?\d|2[0-4])\s*시(?!간)"
            r"(?:\s*(?:[0-5]?\d\s*분|반(?!드시|대|년)))?",
        )
    ),
    "room": tuple(
        re.compile(p)
        for p in (
            # room B, Room 402, conference room 3
            rf"(?<![A-Za-z])(?:(?i:conference|meeting)\s+)?(?i:room|rm\.?)\s*#?{_CODE}"
            r"(?![A-Za-z0-9])",
            # "in 16C" (the block study's phrasing); not quarters (Q3) or units/money (4K, 5G, 2M,
            # 3B)
            r"(?<=\bin\s)(?!Q\d)(?:\d{1,4}[AC-FHIJLNOP-Z]|[A-Z]-?\d{1,4})(?![A-Za-z0-9])",
            # B회의실, 27E호, 27E 호, 402호실 — not 3호선 (subway line)
            rf"(?<![A-Za-z0-9]){_CODE}\s*(?:호실|호(?!선)|회의실)",
            r"(?:제\s*\d+|대|중|소)\s*회의실",
            # 회의실 B, 회의실 402 — not 회의실 3층 / 3시
            r"회의실\s*(?:[A-Z][A-Za-z0-9-]*|\d+[A-Z]?)(?![A-Za-z0-9])"
            r"(?!\s*(?:시|분|층|월|일|원|만))",
        )
    ),
    "date": tuple(
        re.compile(p)
        for p in (
            rf"(?<![A-Za-z]){_MONTHS}\.?\s+(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?"
            r"(?:,?\s+\d{4})?(?![\d:])",  # May 3, May 3rd, 2026
            rf"(?<![\d.])(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTHS}"
            r"(?![A-Za-z])(?:,?\s+\d{4})?",  # 3 May
            r"(?<![\d-])\d{4}-(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01])(?![\d-])",
            r"(?<![\d/])(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])(?:/\d{2,4})?(?![\d/])",
            r"(?:\d{4}\s*년\s*)?(?<!\d)(?:0?[1-9]|1[0-2])\s*월\s*(?:0?[1-9]|[12]\d|3[01])\s*일",
            r"(?<![\d.])\d{4}\.\s?(?:0?[1-9]|1[0-2])\.\s?(?:0?[1-9]|[12]\d|3[01])\.?(?![\d])",
        )
    ),
    "money": tuple(
        re.compile(p)
        for p in (
            r"[$€£₩]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:[KkMB]|bn|(?i:million|thousand|billion))"
            r"(?![A-Za-z]))?",  # $1,200, $1.2M
            r"(?<![\d.,])\d[\d,]*(?:\.\d+)?\s?(?:(?:[KkM]|bn|(?i:million|thousand|billion))\s?)?"
            r"(?i:dollars?|usd|won|krw|euros?|eur|bucks)(?![A-Za-z])",  # 1,200 dollars
            r"(?<![\d.,$€£₩])\d+(?:\.\d+)?\s?(?:[KkM]|bn|(?i:million|thousand|billion))"
            r"(?![A-Za-z0-9])",  # 1.2M, 500k
            # 120만원, 71 만 원, 1억 2천만 원, 1,200달러
            r"(?<![\d.,])\d[\d,]*(?:\.\d+)?(?:\s*(?:억|천만|백만|십만|만|천)(?:\s*\d[\d,]*)?)*"
            r"\s*(?:원|달러)",
        )
    ),
}


@dataclass(frozen=True)
class ValueSpan:
    """A typed value found in a sentence; ``text`` is exactly as written."""

    start: int
    end: int
    value_type: str
    text: str


def find_values(text: str, value_type: str | None = None) -> list[ValueSpan]:
    """Typed values in ``text``; overlapping candidates resolve to the longest match.

    Longest wins across types too, so "2026-05-03" is one date, not a date and a time.
    """
    cands: list[ValueSpan] = []
    for vtype, patterns in _VALUE_PATTERNS.items():
        for pat in patterns:
            for m in pat.finditer(text):
                raw = m.group(0)
                stripped = raw.strip()
                if not stripped:
                    continue
                s = m.start() + (len(raw) - len(raw.lstrip()))
                cands.append(ValueSpan(s, s + len(stripped), vtype, stripped))
    order = {t: i for i, t in enumerate(VALUE_TYPES)}
    chosen = longest_spans(cands, lambda v: v.start, lambda v: v.end, lambda v: order[v.value_type])
    return [v for v in chosen if value_type is None or v.value_type == value_type]


# ----------------------------------------------------------------------------- nouns


@dataclass(frozen=True)
class _NounSpan:
    start: int
    end: int
    noun: str
    slots: tuple[str, ...]


def _noun_pattern(noun: str, korean: bool) -> re.Pattern[str]:
    parts = [re.escape(p) for p in noun.split()]
    if korean:  # compounds are written with or without spaces: 회의 시간 / 회의시간
        return re.compile(r"\s*".join(parts))
    body = r"[\s-]+".join(parts)
    return re.compile(rf"(?<![A-Za-z0-9]){body}(?:s|es)?(?![A-Za-z0-9])", re.IGNORECASE)


def _compile_nouns(slots: Sequence[SlotSpec]) -> list[tuple[re.Pattern[str], str, tuple[str, ...]]]:
    owners: dict[tuple[str, bool], list[str]] = {}
    for slot in slots:
        for noun in slot.nouns_en:
            owners.setdefault((noun, False), []).append(slot.name)
        for noun in slot.nouns_ko:
            owners.setdefault((noun, True), []).append(slot.name)
    return [
        (_noun_pattern(noun, korean), noun, tuple(dict.fromkeys(names)))
        for (noun, korean), names in owners.items()
    ]


def find_slot_nouns(
    text: str, slots: Sequence[SlotSpec] = DEFAULT_SLOTS
) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """Slot nouns in ``text`` as (start, end, noun, slot names); longest match wins."""
    return [(n.start, n.end, n.noun, n.slots) for n in _match_nouns(text, _compile_nouns(slots))]


def _match_nouns(
    text: str, compiled: Sequence[tuple[re.Pattern[str], str, tuple[str, ...]]]
) -> list[_NounSpan]:
    cands = [
        _NounSpan(m.start(), m.end(), noun, names)
        for pat, noun, names in compiled
        for m in pat.finditer(text)
    ]
    return longest_spans(cands, lambda n: n.start, lambda n: n.end)


# --------------------------------------------------------------------------- markers

_EN_NEGATION = re.compile(r"\b(?:not|never|no|cannot)\b|n[’']t\b", re.IGNORECASE)
_EN_CHANGE = re.compile(
    r"\b(?:now|move[ds]?|moving|change[ds]?|changing|reschedul(?:e[ds]?|ing)"
    r"|postpone[ds]?|pushed|update[ds]|switched|shifted|bumped)\b",
    re.IGNORECASE,
)
_EN_PRONOUN = re.compile(
    r"\b(?:he|she|they|it|him|her|them|his|hers|their|theirs|its|i|me|my|mine|we|us|our"
    r"|you|your)\b",
    re.IGNORECASE,
)
_EN_THIRD_PERSON = re.compile(
    r"\b(?:he|she|they|it|him|her|them|his|hers|their|theirs|its)\b", re.IGNORECASE
)
_KO_THIRD_PERSON = frozenset({"그", "그녀", "걔", "그들", "그분", "얘", "쟤"})
_KO_PRONOUNS = _KO_THIRD_PERSON | {"나", "저", "우리", "너", "당신"}
_KO_CHANGE_LEMMAS = frozenset({"변경", "이제", "옮기다", "바뀌다", "바꾸다", "미루다", "앞당기다"})
_KO_CHANGE_SURFACE = ("변경", "옮겼", "옮긴", "바뀌", "바뀐", "바꿨", "바꾼")


def _ko_negated(tokens: Sequence[Token]) -> bool:
    for t in tokens:
        if t.pos == "VCN":  # 아니다
            return True
        if t.pos == "MAG" and t.norm in ("안", "못"):
            return True
        if t.pos.startswith("VX") and t.norm in ("않다", "못하다", "말다"):
            return True
        if t.pos == "IC" and t.norm == "아니":  # "아니, …": a correction
            return True
    return False


def _ko_change(tokens: Sequence[Token], text: str) -> bool:
    return any(t.norm in _KO_CHANGE_LEMMAS for t in tokens) or any(
        s in text for s in _KO_CHANGE_SURFACE
    )


def _ko_pronoun(tokens: Sequence[Token], third: bool) -> bool:
    wanted = _KO_THIRD_PERSON if third else _KO_PRONOUNS
    return any(t.pos == "NP" and t.norm in wanted for t in tokens)


def _overlaps(a_start: int, a_end: int, b_start: int, b_end: int) -> bool:
    return a_start < b_end and b_start < a_end


def _aligned(start: int, end: int, tokens: Sequence[Token]) -> bool:
    """No token crosses the span's edges: "회의" inside the single word "회의록" is no noun."""
    return not any(t.start < start < t.end or t.start < end < t.end for t in tokens)


def _value_key(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


# ------------------------------------------------------------------------- extractor


@dataclass(frozen=True)
class SentenceParse:
    """What the rules made of one sentence: a fact, or why there is none."""

    text: str
    status: ParseStatus
    fact: Fact | None = None
    reason: str = ""
    entities: tuple[str, ...] = field(default=())  # registered names found
    slots: tuple[str, ...] = field(default=())  # slots whose noun occurs
    value_types: tuple[str, ...] = field(default=())  # types of the values found
    values: tuple[str, ...] = field(default=())  # the values, as written

    def to_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "status": str(self.status),
            "reason": self.reason,
            "fact": None
            if self.fact is None
            else {
                "subject": self.fact.subject,
                "relation": self.fact.relation,
                "value": self.fact.value,
                "intent": str(self.fact.intent),
            },
        }


class SlotRuleExtractor:
    """The block study's rule extractor over registered entities and a slot list.

    ``entities`` are the names facts may be about; a fact's subject is the registered
    spelling, never the inflected surface ("김민준님" → "김민준"). ``analyzer`` defaults to
    an ``AutoAnalyzer`` (Korean when the sentence has Hangul, English otherwise); entities
    are registered with it as user words (cheap: Kiwi sees them on first use).
    """

    name = "slot_rules"

    def __init__(
        self,
        entities: Iterable[str],
        slots: Iterable[SlotSpec] | None = None,
        analyzer: Analyzer | None = None,
    ) -> None:
        self.entities: tuple[str, ...] = tuple(
            dict.fromkeys(e.strip() for e in entities if e and e.strip())
        )
        self.slots: tuple[SlotSpec, ...] = tuple(DEFAULT_SLOTS if slots is None else slots)
        names = [s.name for s in self.slots]
        if len(set(names)) != len(names):
            raise ValueError(f"slot names must be distinct, got {names}")
        self._slot_by_name = {s.name: s for s in self.slots}
        self._nouns = _compile_nouns(self.slots)
        self.analyzer: Analyzer = analyzer if analyzer is not None else AutoAnalyzer()
        self.analyzer.add_user_words(self.entities)

    def extract(self, record: Record) -> Extraction:
        return self.extract_text(record.text)

    def extract_text(self, text: str) -> Extraction:
        """Per sentence, then combined over the record.

        A record with an unresolved sentence is ``unresolved`` (the reader always sees
        it). It still carries the facts of its clean sentences, except a fact whose slot
        the unresolved sentence may restate (it names the slot or has a value of the
        slot's type: "Alex's meeting is at 3pm. Now it's at 4pm."). Two sentences giving
        one key different values cancel both: a multi-valued record, not two facts.
        """
        text = text.strip()
        if not text:
            return Extraction.no_fact("empty text")
        parses = [self.parse_sentence(s) for s in self.analyzer.sentences(text)]
        unresolved = [p for p in parses if p.status is ParseStatus.UNRESOLVED]
        reasons = [p.reason for p in unresolved]
        by_key: dict[tuple[str, str], set[str]] = {}
        for p in parses:
            if p.fact is not None:
                by_key.setdefault((p.fact.subject, p.fact.relation), set()).add(
                    _value_key(p.fact.value)
                )
        facts: list[Fact] = []
        for p in parses:
            if p.fact is None:
                continue
            slot = self._slot_by_name[p.fact.relation]
            if len(by_key[(p.fact.subject, p.fact.relation)]) > 1:
                reason = f"{p.fact.subject} / {p.fact.relation}: different values in one record"
                if reason not in reasons:
                    reasons.append(reason)
                continue
            if any(slot.name in u.slots or slot.value_type in u.value_types for u in unresolved):
                continue
            if p.fact not in facts:
                facts.append(p.fact)
        extra: dict[str, object] = {"sentences": [p.to_dict() for p in parses]}
        if reasons:
            return Extraction(ParseStatus.UNRESOLVED, tuple(facts), "; ".join(reasons), extra)
        if facts:
            return Extraction(ParseStatus.FACTS, tuple(facts), "", extra)
        why = "; ".join(dict.fromkeys(p.reason for p in parses if p.reason)) or "no slot"
        return Extraction(ParseStatus.NO_FACT, (), why, extra)

    def parse_sentence(self, sentence: str) -> SentenceParse:
        """The rules on one sentence.

        Order: a typed value must occur (else no_fact); a third-person pronoun with no
        registered entity makes the sentence unresolved even without a slot noun ("Now
        it's at 4pm" restates somebody's value); then slot noun, slot ambiguity, value
        count, negation, entity count.
        """
        text = sentence.strip()
        values = find_values(text)
        entity_spans = [
            sp
            for sp in self.analyzer.name_spans(text, self.entities)
            if not any(_overlaps(sp.start, sp.end, v.start, v.end) for v in values)
        ]
        korean = has_hangul(text)
        tokens: list[Token] = self.analyzer.tokens(text) if korean else []
        nouns = [
            n
            for n in _match_nouns(text, self._nouns)
            if not any(_overlaps(n.start, n.end, v.start, v.end) for v in values)
            and not any(_overlaps(n.start, n.end, e.start, e.end) for e in entity_spans)
            and _aligned(n.start, n.end, tokens)
        ]
        named = tuple(dict.fromkeys(name for n in nouns for name in n.slots))
        types_present = tuple(dict.fromkeys(v.value_type for v in values))
        candidates = [s for s in named if self._slot_by_name[s].value_type in types_present]
        entities = tuple(dict.fromkeys(sp.name for sp in entity_spans))
        masked = _mask(text, entity_spans, values)

        def result(status: ParseStatus, reason: str, fact: Fact | None = None) -> SentenceParse:
            return SentenceParse(
                text,
                status,
                fact,
                reason,
                entities,
                named,
                types_present,
                tuple(v.text for v in values),
            )

        if not values:
            if named:
                wanted = sorted({self._slot_by_name[s].value_type for s in named})
                return result(
                    ParseStatus.NO_FACT, f"no {'/'.join(wanted)} value for {', '.join(named)}"
                )
            return result(ParseStatus.NO_FACT, "no slot noun and no typed value")
        if not entities and (
            _EN_THIRD_PERSON.search(masked) or (korean and _ko_pronoun(tokens, third=True))
        ):
            return result(ParseStatus.UNRESOLVED, "pronoun without a registered entity")
        if not named:
            return result(ParseStatus.NO_FACT, "no slot noun")
        if not candidates:
            wanted = sorted({self._slot_by_name[s].value_type for s in named})
            return result(
                ParseStatus.NO_FACT, f"no {'/'.join(wanted)} value for {', '.join(named)}"
            )
        if len(candidates) > 1:
            return result(ParseStatus.UNRESOLVED, f"ambiguous slot: {', '.join(candidates)}")
        slot = self._slot_by_name[candidates[0]]
        typed = [v for v in values if v.value_type == slot.value_type]
        if len({_value_key(v.text) for v in typed}) > 1:
            return result(
                ParseStatus.UNRESOLVED,
                f"multi-valued {slot.name}: {', '.join(v.text for v in typed)}",
            )
        if _EN_NEGATION.search(masked) or (korean and _ko_negated(tokens)):
            return result(ParseStatus.UNRESOLVED, "negated")
        if not entities:
            if _EN_PRONOUN.search(masked) or (korean and _ko_pronoun(tokens, third=False)):
                return result(ParseStatus.UNRESOLVED, "pronoun without a registered entity")
            return result(ParseStatus.UNRESOLVED, "no registered entity")
        if len(entities) > 1:
            return result(ParseStatus.UNRESOLVED, f"ambiguous entity: {', '.join(entities)}")
        change = bool(_EN_CHANGE.search(masked)) or (korean and _ko_change(tokens, masked))
        fact = Fact(
            entities[0], slot.name, typed[0].text, Intent.UPDATE if change else Intent.ASSERT
        )
        return result(ParseStatus.FACTS, "", fact)


def _mask(text: str, entities: Sequence[NameSpan], values: Sequence[ValueSpan]) -> str:
    """The text with entity and value spans blanked, so "Room IT" is no pronoun."""
    chars = list(text)
    for s, e in [(x.start, x.end) for x in entities] + [(v.start, v.end) for v in values]:
        for i in range(s, e):
            chars[i] = " "
    return "".join(chars)
