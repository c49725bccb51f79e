"""The rule-based extractor for text-only records: chat in English and Korean, no LLM.

Opt-in (``MemoryConfig(extractor="chat")``): its measured precision on a blind chat corpus
is far from what a default that can close somebody's current value needs (BENCHMARKS.md).

A message is read clause by clause. A clause yields facts only when it states values
(it does not ask, propose, suppose or remember the past), each value has a typed form
(``graphmem.extract.chat.values``), and the subject the value belongs to is clear:

- a person named in the clause (full name, given name, with titles and particles:
  "민준님이랑", "Kenji's"), "I / my / 제 / 내" for the speaker, "you / your / 님" for the
  other person of a direct conversation;
- a scheduled thing named in the clause ("the Atlas weekly sync", "dinner", "주간 회의"),
  which owns its time, date, room, headcount and length;
- otherwise the conversation's topic: what the previous facts of this conversation were
  about, so "ok dinner moves to 7" and then "room 6A" stay on the dinner.

The relation comes from the words around the value (``cues.RELATION_NOUNS`` and the
relations a user declared in the registry) and the value's type; a change stated without
a noun ("Friday now") lands on the key of that type the subject already has. Intent:
cancel words revoke, "not X, Y" / "typo" / "정정" correct, change words update, "from X to
Y" updates only when X is the value memory holds. Anything unclear — two people who could
be meant, a value with no owner, a negated statement — yields no fact and the record is
kept raw (``unresolved``), because a wrong key silently closes somebody's current value.

The extractor keeps a small state per conversation (the record's ``source``, else its
participants): the subjects it has seen, the values it has read and open proposals. It
reads records in the order it is given them.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo

from graphmem.domain.keys import RelationRegistry, normalize_name
from graphmem.domain.model import Fact, Intent, Record
from graphmem.extract.base import Extraction
from graphmem.extract.chat import cues
from graphmem.extract.chat.values import ValueSpan, find_values, resolve_bare_time
from graphmem.language.text import (
    KOREAN_FULL_NAME,
    has_hangul,
    particle_stems,
    strip_korean_title,
)

__all__ = ["MAX_CONVERSATIONS", "MAX_KEYS", "MAX_MESSAGE_CHARS", "ChatExtractor"]

MAX_CONVERSATIONS = 10_000
MAX_MESSAGE_CHARS = 2_000
MAX_KEYS = 200_000

_CLAUSE_SPLIT = re.compile(
    r"(?<=[.!?。])\s+(?=\S)|\n+|;\s*|\s+(?:but|so|tho|though|although|btw|also|plus)\s+|"
    r"\s*(?:ㅋㅋ+|ㅎㅎ+|ㅠㅠ+)\s*|(?<=[요죠])[.!~]*\s+(?=\S)|(?<=니다)[.!~]*\s+(?=\S)|"
    r"(?<=[다네])[.!~]+\s+(?=\S)|"
    r"\s+(?:근데|그리고|그래서|아 그리고)\s+",
    re.I,
)
_WORD = re.compile(r"[\w'’\-]+", re.UNICODE)
_CAPITAL_PHRASE = re.compile(
    r"(?<![\w'])((?:[A-Z][\w&'’-]*|[A-Z]{2,}[\w-]*|\d+(?:st|nd|rd|th)?)"
    r"(?:\s+(?:[A-Z][\w&'’-]*|of|the|&|\d+))*)"
)
_CODE_NAME = re.compile(
    r"(?<![\w-])([A-Z]{2,}-?\d{2,}[\w-]*|(?:ep|episode|order|"
    r"ticket|invoice|case|flight|unit|apt|lot|issue|pr|#)\s?#?\d{2,})(?![\w-])",
    re.I,
)
# Korean word endings of verbs and adnominals ("배정된", "재협상해서", "하는"): not names.
_KO_VERB_FORM = re.compile(r"(?:해서|어서|아서|하고|하며|하면|되는|하는|했던|했어|된|한|할|될|던)$")
_KO_PARTICLE_END = re.compile(r"(?:은|는|이|가|을|를|에|에서|로|으로|도|만|까지|부터|랑|과|와)$")
# Capitalized words that open a sentence as ordinary words, not names.
_COMMON_OPENER = re.compile(
    r"(?:[A-Z][a-z]+(?:ed|ing|ly))|New|Final|Total|Current|Our|Your|My|The|This|That|Next|"
    r"Last|Hard|Soft|Max|Min|Team|Project|Please|Note|Heads|Quick|Big|Small|Good|Bad|Sad|"
    r"Great|Official|Official(?:ly)?|Latest|Original|Same|Whole|Overall|Weekly|Daily|Monthly"
)
_OWNER_VERBS = re.compile(
    r"(?<![\w'])(?P<o>[A-Z][\w-]*)(?:\s+[a-z]+)?\s+(?:is|are|will be|'s|gets?|goes|now|"
    r"still|officially|finally|has to be|have to be|must be|needs to be)?\s*"
    r"(?:scheduled to |set to |capped|budgeted|done by|finished by|completed by|delivered by|"
    r"submitted by|wrapped by|"
    r"due|launch(?:es|ing)?|ship(?:s|ping)?|release[sd]?|go(?:es)? live|opens?|lands?|"
    r"wraps?|closes?)\b|\b(?:releasing|launching|shipping|opening|live with|launch of|"
    r"release of|shipping of)\s+(?:the\s+)?(?P<o2>[A-Z][\w-]*)"
)
_FROM_TO_EN = re.compile(r"\bfrom\s+(?P<a>.{1,30}?)\s+to\s+(?P<b>.{1,30})", re.I)
_FROM_TO_KO = re.compile(r"(?P<a>\S.{0,20}?)에서\s*(?P<b>\S.{0,20}?)(?:으로|로)")
_SENTENCE_START_WORDS = frozenset(
    {
        "ok",
        "okay",
        "hi",
        "hey",
        "hello",
        "thanks",
        "thx",
        "the",
        "a",
        "an",
        "our",
        "my",
        "your",
        "reminder",
        "update",
        "fyi",
        "heads",
        "note",
        "correction",
        "sorry",
        "so",
        "yes",
        "no",
        "yep",
        "nope",
        "sure",
        "great",
        "perfect",
        "cool",
        "also",
        "and",
        "but",
        "quick",
        "just",
        "confirmed",
        "confirming",
        "please",
        "pls",
        "good",
        "morning",
        "all",
        "team",
        "guys",
        "folks",
        "everyone",
        "small",
        "bad",
        "news",
        "new",
        "next",
        "this",
        "that",
        "it",
        "we",
        "i",
        "you",
        "he",
        "she",
        "they",
        "is",
        "are",
        "will",
        "can",
        "could",
        "would",
        "should",
        "let's",
        "lets",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "today",
        "tomorrow",
        "tonight",
        "room",
        "rm",
        "noon",
        "eta",
        "re",
        "zoom",
        "pm",
        "am",
        "usd",
        "gbp",
        "eur",
        "krw",
        "asap",
        "eod",
        "lol",
        "omg",
        "btw",
        "tbh",
        "idk",
        "imo",
        "ps",
        "nb",
        "via",
        "per",
        "wifi",
        "ty",
    }
)
_EN_PERSON = re.compile(
    r"(?<![\w'’])(?P<first>[A-Z][a-z]{1,15})\s+(?P<last>[A-Z][a-z-]{1,20})"
    r"(?![\w])"
)
_KO_PERSON = re.compile(
    rf"(?<![가-힣])(?P<name>{KOREAN_FULL_NAME})"
    r"(?=님|씨|\s*(?:팀장|대리|과장|부장|차장|실장|대표|사장|매니저|선생|선배|프로|책임|선임|수석))"
)
_PLACE_HEADS = frozenset(
    {
        "road",
        "rd",
        "street",
        "st",
        "avenue",
        "ave",
        "lane",
        "park",
        "centre",
        "center",
        "studios",
        "studio",
        "hall",
        "cafe",
        "café",
        "station",
        "hotel",
        "clinic",
        "office",
        "building",
        "tower",
        "gym",
        "bar",
        "pub",
        "restaurant",
        "club",
        "school",
        "airport",
        "port",
        "square",
        "bridge",
        "market",
        "mall",
        "house",
        "court",
        "field",
        "arena",
        "stadium",
        "theatre",
        "theater",
        "library",
        "museum",
        "church",
        "university",
        "college",
        "hospital",
        "bank",
        "team",
        "group",
        "inc",
        "ltd",
        "co",
        "corp",
        "labs",
        "lab",
        "goods",
        "kitchen",
        "grill",
        "bistro",
        "tennis",
        "weekly",
        "sync",
        "standup",
        "meeting",
        "review",
    }
)
# Meetings that belong to the people in them (not dinners or parties).
_MEETINGS = frozenset(
    {
        "meeting",
        "mtg",
        "sync",
        "standup",
        "stand-up",
        "1:1",
        "one-on-one",
        "회의",
        "미팅",
        "스탠드업",
        "싱크",
        "원온원",
        "1on1",
    }
)
# Words before a relation noun that do not own it ("the new deadline", "이번 마감").
_NOT_OWNERS = frozenset(
    {
        "new",
        "old",
        "final",
        "current",
        "next",
        "last",
        "our",
        "your",
        "my",
        "their",
        "his",
        "her",
        "the",
        "a",
        "an",
        "this",
        "that",
        "project",
        "team",
        "total",
        "max",
        "maximum",
        "이번",
        "다음",
        "지난",
        "새",
        "최종",
        "현재",
        "우리",
        "저희",
        "제",
        "내",
        "그",
        "이",
        "전체",
        "총",
        "최대",
        "프로젝트",
        "팀",
        "회사",
        "원래",
        "기존",
        "변경",
        "하루",
        "월",
        "일",
        "시간",
        "제출",
        "지출",
        "사용",
        "집행",
        "운영",
        "개발",
        "예정",
        "공식",
        "정식",
        "최초",
        "이제",
        "앞으로",
        "지금",
        "오늘",
        "내일",
        "참고로",
        "참고",
        "공지",
        "혹시",
        "그럼",
        "ㅇㅋ",
        "일단",
        "결국",
        "드디어",
        "확정",
        "고객",
        "대상",
        "목표",
        "실제",
        "새로",
    }
)
# Things that happen in the evening: an hour said without am/pm is then pm.
_EVENING = re.compile(
    r"dinner|party|drinks|book club|concert|show|gig|quiz|bar|pub|"
    r"movie|date night|회식|저녁|술|파티|공연|뒤풀이|야식",
    re.I,
)
_PERSONAL_KINDS = frozenset({"phone", "email", "rate"})
_EVENT_KINDS = frozenset({"time", "bare_time", "date", "room", "count", "duration", "url"})
_DEFAULT_RELATION = {
    "time": "time",
    "bare_time": "time",
    "date": "date",
    "room": "room",
    "money": "price",
    "rate": "rate",
    "duration": "duration",
    "count": "headcount",
    "phone": "phone",
    "email": "email",
    "url": "link",
}


@dataclass
class _Conversation:
    subjects: dict[str, str] = field(default_factory=dict)  # normalized -> as first named
    heads: dict[tuple[str, str], str] = field(default_factory=dict)  # (subject, rel) -> value
    kinds: dict[tuple[str, str], str] = field(default_factory=dict)
    topic: str | None = None
    events: set[str] = field(default_factory=set)  # subjects that are scheduled things
    pending: list[ValueSpan] = field(default_factory=list)


@dataclass(frozen=True)
class _Mention:
    name: str  # the subject as memory will key it
    start: int
    kind: str  # "person" | "event"
    head: str = ""  # the event noun ("sync", "회의")


class ChatExtractor:
    """Reads chat messages into facts without a model (see the module docstring)."""

    name = "chat"

    def __init__(
        self,
        registry: RelationRegistry | None = None,
        *,
        known_names: Iterable[str] = (),
        timezone: str | tzinfo = "UTC",
    ) -> None:
        self.registry = registry or RelationRegistry()
        self.known_names = [n for n in known_names if n and n.strip()]
        # The users' time zone: "tomorrow" and "Friday" are read in it (an IANA name or a
        # tzinfo such as a message's own fixed offset).
        if isinstance(timezone, tzinfo):
            self.tz: tzinfo = timezone
        else:
            self.tz = UTC if timezone == "UTC" else ZoneInfo(timezone)
        # Bounded: the oldest conversations and keys are forgotten first (the memory itself
        # keeps everything; this is only what the extractor remembers for context).
        self._conversations: OrderedDict[str, _Conversation] = OrderedDict()
        self._heads: dict[tuple[str, str], str] = {}
        self._subjects: dict[str, str] = {}
        self._table: (
            tuple[tuple[int, int, int], list[tuple[str, tuple[str, ...], tuple[str, ...]]]] | None
        ) = None
        self._owner_vocabularies: dict[str, tuple[list[str], str, frozenset[str]]] = {}
        self._kinds: dict[tuple[str, str], str] = {}

    # -- the Extractor interface ---------------------------------------------------------
    def extract(self, record: Record) -> Extraction:
        if len(record.text) > MAX_MESSAGE_CHARS:
            # A document, not a chat message: kept raw, and the rules stay linear.
            return Extraction.unresolved(
                f"longer than {MAX_MESSAGE_CHARS:,} characters: kept raw, not read as chat"
            )
        cid = self._conversation_id(record)
        conv = self._conversations.get(cid)
        if conv is None:
            # Keys are memory-wide (an attribute is the same whoever mentions it); the
            # topic and open proposals belong to one conversation.
            conv = self._conversations[cid] = _Conversation(
                subjects=self._subjects, heads=self._heads, kinds=self._kinds
            )
            while len(self._conversations) > MAX_CONVERSATIONS:
                self._conversations.popitem(last=False)
        self._conversations.move_to_end(cid)
        now = self._now(record)
        people = self._people(record)
        facts: list[Fact] = []
        unclear: list[str] = []
        for clause in self._clauses(record.text):
            got, why = self._clause(clause, record, conv, people, now)
            facts += got
            if why:
                unclear.append(why)
        self._trim()
        if facts:
            return Extraction.found(*_dedupe(facts, self.registry))
        if unclear:
            return Extraction.unresolved("; ".join(unclear))
        return Extraction.no_fact()

    def for_namespace(self, registry: RelationRegistry) -> ChatExtractor:
        """A fresh extractor with these settings for one namespace: context and
        vocabulary never cross namespaces."""
        return ChatExtractor(registry, known_names=self.known_names, timezone=self.tz)

    def _trim(self) -> None:
        while len(self._heads) > MAX_KEYS:
            key = next(iter(self._heads))
            del self._heads[key]
            self._kinds.pop(key, None)
        while len(self._kinds) > MAX_KEYS:
            del self._kinds[next(iter(self._kinds))]
        while len(self._subjects) > MAX_KEYS:
            del self._subjects[next(iter(self._subjects))]

    # -- context ---------------------------------------------------------------------------
    @staticmethod
    def _conversation_id(record: Record) -> str:
        if record.source:
            return f"source:{record.source}"
        people = sorted({*record.participants, *([record.speaker] if record.speaker else [])})
        return "people:" + "|".join(people)

    def _now(self, record: Record) -> datetime:
        t = record.stated_at or record.observed_at
        when = datetime.fromisoformat(t) if t else datetime.now(UTC)
        return when.astimezone(self.tz)

    def _people(self, record: Record) -> list[str]:
        names = [
            *([record.speaker] if record.speaker else []),
            *record.participants,
            *self.known_names,
        ]
        return list(dict.fromkeys(n for n in names if n and n.strip()))

    @staticmethod
    def _clauses(text: str) -> list[str]:
        parts = [p.strip() for p in _CLAUSE_SPLIT.split(text) if p and p.strip()]
        return parts or [text]

    # -- one clause ---------------------------------------------------------------------------
    def _clause(
        self, clause: str, record: Record, conv: _Conversation, people: list[str], now: datetime
    ) -> tuple[list[Fact], str]:
        values = find_values(clause, now)
        typed = [v for v in values if v.kind != "number"]
        numbers = [v for v in values if v.kind == "number"]
        mentions = [
            m
            for m in self._mentions(clause, people, conv)
            if m.kind != "event"
            or not any(v.start <= m.start < v.end for v in values if v.kind != "number")
        ]
        asks = bool(cues.QUESTION.search(clause))
        proposes = bool(cues.PROPOSAL.search(clause))
        accepts = bool(cues.ACCEPT.search(clause))
        if asks or (proposes and not accepts):
            conv.pending = [*typed, *numbers][:6] or conv.pending
            self._touch_topic(conv, mentions)
            return [], ""
        if cues.PAST.search(clause) or cues.HYPOTHETICAL.search(clause):
            return [], ""
        revoke = bool(cues.REVOKE.search(clause))
        correct = bool(cues.CORRECT.search(clause))
        update = bool(cues.UPDATE.search(clause))
        if revoke and not [v for v in typed if v.kind not in ("date", "time", "bare_time")]:
            return self._revoke(clause, record, conv, people, mentions)
        if not typed and numbers and (accepts or update or correct):
            typed = self._from_numbers(numbers, conv, mentions)
        if not typed:
            self._touch_topic(conv, mentions)
            known = self._known_mentions(clause, conv)
            partnered = self._meeting_with(clause, mentions)
            if partnered is not None:
                conv.topic = normalize_name(partnered)
                conv.subjects.setdefault(conv.topic, partnered)
            elif len(known) == 1 and not any(m.kind == "event" for m in mentions):
                conv.topic = known[0]
            return [], ""
        if cues.NEGATION.search(clause) and not correct and not update:
            return [], f"negated statement: {clause[:60]!r}"
        if correct:
            typed = self._corrected_values(clause, typed)
        typed = self._carry_unit(clause, typed)
        from_value = self._from_value(clause, typed)
        intent = (
            Intent.CORRECT
            if correct
            else Intent.UPDATE
            if (update or accepts or from_value)
            else Intent.ASSERT
        )
        facts: list[Fact] = []
        why = ""
        for v in typed:
            if from_value is not None and v is from_value:
                continue
            subject = self._subject(v, clause, record, conv, people, mentions)
            if subject is None:
                why = f"no clear owner for {v.text!r}"
                continue
            relation = self._relation(v, clause, subject, conv, mentions)
            if not relation:
                why = f"which attribute of {subject!r} is {v.text!r}?"
                continue
            key = (normalize_name(subject), relation)
            value = v.value
            if v.kind == "bare_time":
                hint = clause + (" evening" if _EVENING.search(subject + " " + clause) else "")
                value = resolve_bare_time(value, conv.heads.get(key), hint)
            if from_value is not None:
                held = conv.heads.get(key)
                said = (
                    from_value.value
                    if from_value.kind != "bare_time"
                    else resolve_bare_time(from_value.value, held, clause)
                )
                if held is not None and held != said:
                    why = f"'from {from_value.text}' is not the value held ({held})"
                    continue
            kind_intent = intent
            if intent is Intent.UPDATE and key not in conv.heads and not from_value:
                kind_intent = Intent.ASSERT
            facts.append(Fact(subject, relation, value, kind_intent))
            conv.heads[key] = value
            conv.kinds[key] = v.kind
            conv.topic = normalize_name(subject)
            conv.subjects.setdefault(normalize_name(subject), subject)
            if any(m.kind == "event" and m.name == subject for m in mentions):
                conv.events.add(conv.topic)
        if facts:
            conv.pending = []
        return facts, why

    # -- subjects --------------------------------------------------------------------------
    def _mentions(self, clause: str, people: list[str], conv: _Conversation) -> list[_Mention]:
        out: list[_Mention] = []
        folded = clause.casefold()
        tokens = [(m.group(0), m.start()) for m in _WORD.finditer(clause)]
        people = [*people, *(n for n in self._new_people(clause) if n not in people)]
        for person in people:
            for form in _name_forms(person):
                pos = _find_form(form, folded, tokens)
                if pos is not None:
                    out.append(_Mention(person, pos, "person"))
                    break
        out += self._events(clause, conv)
        # A given name two people share is not a mention of either: it stays ambiguous.
        by_pos: dict[int, list[_Mention]] = {}
        for m in out:
            by_pos.setdefault(m.start, []).append(m)
        return sorted(out, key=lambda m: m.start)

    @staticmethod
    def _new_people(clause: str) -> list[str]:
        """People nobody registered: 'Sofia Sato' (two capitalized words that are not a
        place or a thing), '강도윤님' (a Korean name with a title or particle)."""
        out = []
        for m in _EN_PERSON.finditer(clause):
            first, last = m.group("first"), m.group("last")
            words = {first.casefold(), last.casefold()}
            if (
                words & _SENTENCE_START_WORDS
                or last.casefold() in _PLACE_HEADS
                or first.casefold() in _PLACE_HEADS
            ):
                continue
            out.append(f"{first} {last}")
        for m in _KO_PERSON.finditer(clause):
            out.append(m.group("name"))
        return out

    def _events(self, clause: str, conv: _Conversation) -> list[_Mention]:
        out: list[_Mention] = []
        korean = has_hangul(clause)
        nouns = cues.EVENT_NOUNS_KO if korean else cues.EVENT_NOUNS_EN
        low = clause.casefold()
        for noun in nouns:
            if noun not in low:
                continue
            for m in re.finditer(
                re.escape(noun) if korean else rf"(?<![\w-]){re.escape(noun)}(?:s|es)?(?![\w-])",
                low,
            ):
                phrase = self._event_phrase(clause, m.start(), m.end(), korean)
                out.append(
                    _Mention(self._known_subject(phrase, noun, conv), m.start(), "event", noun)
                )
        for m in _CODE_NAME.finditer(clause):  # PO-4471, INV-2291
            out.append(
                _Mention(
                    self._known_subject(m.group(1), m.group(1), conv),
                    m.start(),
                    "event",
                    m.group(1),
                )
            )
        # Keep the longest phrase where event nouns overlap ("book club" over "club").
        out.sort(key=lambda m: (m.start, -len(m.name)))
        kept: list[_Mention] = []
        for mention in out:
            if not any(
                k.start <= mention.start < k.start + len(k.name)
                and k.head != mention.head
                and mention.head in k.name.casefold()
                for k in kept
            ):
                kept.append(mention)
        return kept

    @staticmethod
    def _event_phrase(clause: str, start: int, end: int, korean: bool) -> str:
        """The noun phrase ending in the event noun: capitalized or noun modifiers."""
        before = clause[max(0, start - 80) : start]
        if korean:
            m = re.search(r"((?:[가-힣A-Za-z0-9]+\s?){0,2})$", before)
            mods = (m.group(1) if m else "").split()
            # keep modifiers that are nouns (no particle or verb ending glued on)
            mods = [
                w
                for w in mods
                if not re.search(
                    r"(?:은|는|이|가|을|를|에|의|도|로|와|과|랑|"
                    r"고|서|요|다|죠|네|게|지|면|데|쯤)$",
                    w,
                )
                and not re.search(
                    r"\d|^(?:오전|오후|저녁|아침|밤|내일|오늘|모레|이번|다음|"
                    r"지난|담주|대|소|중|한|두|세|그|이|저|제|내|우리|저희)$",
                    w,
                )
            ]
            mods = mods[-2:]
            if not mods:
                # a compound glued onto the noun ("주간회의"): keep the glued part
                glued = re.search(r"([가-힣A-Za-z]+)$", before)
                return (glued.group(1) if glued else "") + clause[start:end]
            first = before.rfind(mods[0])
            return clause[first:end].strip() if first >= 0 else clause[start:end]
        m = re.search(
            r"((?:(?:[A-Z][\w&'’-]*|Q[1-4]|\d{4}|(?i:weekly|daily|monthly|"
            r"quarterly|annual|team|family|sunday|monday|tuesday|wednesday|"
            r"thursday|friday|saturday|book|dentist|doctor|vet|hair|design|"
            r"sprint|board|client|investor|product|sales|budget|status|all-hands|"
            r"planning|project|kickoff|launch|birthday|holiday|office|fitness|"
            r"yoga|piano|swim|tennis|soccer|football|club|spring|summer|fall|"
            r"winter|bday))\s+){0,3})$",
            before,
        )
        mods = (m.group(1) if m else "").split()
        mods = [
            w
            for w in mods
            if w.casefold() not in ("the", "our", "my", "your", "a", "an", "this", "next", "that")
        ]
        while mods and (
            mods[0].casefold() in _SENTENCE_START_WORDS
            or re.search(r"['’](?:s|re|m|ll|ve|d)$", mods[0])
        ):
            mods = mods[1:]
        return " ".join([*mods, clause[start:end]]).strip()

    @staticmethod
    def _known_subject(phrase: str, head: str, conv: _Conversation) -> str:
        """An event named again ("the sync" after "Atlas weekly sync") is the same one."""
        norm = normalize_name(phrase)
        if norm in conv.subjects:
            return conv.subjects[norm]
        head_norm = normalize_name(head)
        same_head = [
            n
            for n in conv.subjects
            if n.split() and (n.split()[-1] == head_norm or n.endswith(head_norm))
        ]
        if len(same_head) == 1 and set(norm.split()) <= set(same_head[0].split()) | {head_norm}:
            return conv.subjects[same_head[0]]
        if norm == head_norm and conv.topic and head_norm in conv.topic.split():
            return conv.subjects.get(conv.topic, phrase)
        return phrase

    @staticmethod
    def _touch_topic(conv: _Conversation, mentions: list[_Mention]) -> None:
        events = [m for m in mentions if m.kind == "event"]
        if len(events) == 1:
            conv.topic = normalize_name(events[0].name)
            conv.subjects.setdefault(conv.topic, events[0].name)
            conv.events.add(conv.topic)

    def _subject(
        self,
        v: ValueSpan,
        clause: str,
        record: Record,
        conv: _Conversation,
        people: list[str],
        mentions: list[_Mention],
    ) -> str | None:
        persons = list(dict.fromkeys(m.name for m in mentions if m.kind == "person"))
        events = list(dict.fromkeys(m.name for m in mentions if m.kind == "event"))
        speaker = record.speaker
        partner = self._partner(record)
        personal = v.kind in _PERSONAL_KINDS
        first = bool(cues.FIRST_PERSON.search(clause))
        second = bool(cues.SECOND_PERSON.search(clause))
        # "the standup with Minjun", "민준님과의 회의": a meeting with one person is that
        # person's meeting; its time and room are theirs.
        partnered = self._meeting_with(clause, mentions)
        if partnered is not None and v.kind in ("time", "bare_time", "room", "date"):
            return partnered
        # "the Orion deadline", "budget for Orion", "라온 출시일": the relation noun's owner.
        owner = self._owner(clause, v, [*persons, *people], conv)
        if owner is not None:
            return owner
        # Owner named right before the value's noun: "Kenji's number", "민준님 일당".
        if persons:
            others = [p for p in persons if p != speaker or not first]
            vocative = self._vocative(clause, mentions)
            named = [p for p in others if p not in vocative] or (others if personal else [])
            if (
                len(named) == 1
                and (personal or not events)
                and (personal or self._has_relation_noun(clause, v))
            ):
                return named[0]
            if len(named) > 1:
                return None
        if events and v.kind in _EVENT_KINDS | {"money"}:
            if len(set(events)) == 1:
                return events[0]
            before = [m for m in mentions if m.kind == "event" and m.start < v.start]
            after = [m for m in mentions if m.kind == "event" and m.start >= v.start]
            # "A is at 3, B at 5": each value belongs to the thing named just before it.
            if (
                before
                and len({m.name for m in after}) <= 1
                and (not after or len({m.name for m in before}) > 1)
            ):
                return max(before, key=lambda m: m.start).name
            return None
        if personal or v.kind == "money":
            if first and speaker and not second:
                return speaker
            if second and partner and not first:
                return partner
        known = self._known_mentions(clause, conv)
        if (
            len(known) == 1
            and v.kind not in _PERSONAL_KINDS
            and (
                any(
                    k == v.kind or _family(k) == _family(v.kind)
                    for (sj, _), k in conv.kinds.items()
                    if sj == known[0]
                )
            )
        ):
            return conv.subjects[known[0]]  # a subject memory already holds, named again
        if cues.THIRD_PERSON.search(clause) and not conv.topic:
            return None
        if (
            conv.topic
            and self._fits_topic(v, conv)
            and not self._names_something_else(clause, people, conv)
        ):
            return conv.subjects.get(conv.topic, conv.topic)
        if first and speaker and not second and v.kind not in ("count",):
            return speaker
        return None

    def _owner(
        self, clause: str, v: ValueSpan, people: list[str], conv: _Conversation
    ) -> str | None:
        kind = "time" if v.kind == "bare_time" else v.kind
        nouns, alt, generic = self._owner_vocabulary(kind)
        if not nouns:
            return None
        owners: list[str] = []
        if has_hangul(clause):
            for m in re.finditer(rf"(?:{alt})", clause):
                # The words before the token the noun sits in ("별빛 총예산" → 별빛).
                token_start = clause.rfind(" ", 0, m.start()) + 1
                words = clause[:token_start].split()[-4:]
                picked = None
                for w in reversed(words):
                    core = strip_korean_title(w.removesuffix("의"))
                    if re.search(r"\d", w):
                        break
                    if core.casefold() in generic or any(
                        g in core for g in generic if len(g) >= 2 and has_hangul(g)
                    ):
                        continue  # part of the noun phrase ("총예산", "제출")
                    if _KO_VERB_FORM.search(w):
                        continue  # "배정된", "재협상해서": a verb, not a name
                    if (
                        core != w.removesuffix("의")
                        or not _KO_PARTICLE_END.search(w)
                        or w.endswith(("에", "의"))
                    ):
                        picked = re.sub(r"(?:에|의)$", "", core) if core == w else core
                    break
                if picked:
                    owners.append(picked)
            if not owners and re.search(alt, clause):
                # "나래는 5월 25일까지 마감이에요", "기존 한도 대신 별빛은 …": the sentence's
                # topic (a noun marked 은/는) or its first noun owns it.
                topic = re.search(
                    r"(?<![가-힣A-Za-z0-9])([가-힣A-Za-z][가-힣A-Za-z0-9]*?)(?:은|는)\s", clause
                )
                head = re.match(
                    r"\s*(?:\S+\)\s*)?(?:앞으로는?|이제부터|이제|참고로|공지\)?|ㅇㅋ|"
                    r"ㅠㅠ|혹시)?\s*([가-힣A-Za-z][가-힣A-Za-z0-9]*?)"
                    r"(?:은|는|이|가|을|를)?\s",
                    clause,
                )
                for cand in (topic, head):
                    if cand and cand.group(1).casefold() not in generic:
                        owners.append(cand.group(1))
                        break
        else:
            for m in re.finditer(
                rf"(?<![\w'])(?P<o>[A-Z][\w-]*)(?:['’]s)?\s+(?i:{alt})(?:s|es)?\b", clause
            ):
                o = m.group("o")
                if _COMMON_OPENER.fullmatch(o) and normalize_name(o) not in conv.subjects:
                    continue  # "Approved budget …", "New deadline …": an ordinary word
                if not any(n.casefold().startswith(o.casefold() + " ") for n in nouns):
                    owners.append(o)
            for m in re.finditer(
                rf"(?i:\b(?:{alt})(?:s|es)?\s+(?:of|for|on|at)\s+(?:the\s+|"
                rf"project\s+)?)(?P<o>[A-Z][\w-]*)",
                clause,
            ):
                owners.append(m.group("o"))
            for m in re.finditer(
                rf"(?<![\w'])(?P<o>[A-Z][\w-]*)\s+(?:has|have|gets|got)\s+"
                rf"(?:(?:a|an|the|its|new)\s+)?(?:\w+\s+)?(?i:{alt})\b",
                clause,
            ):
                owners.append(m.group("o"))
            # "Zephyr is due", "Harbor launches", "releasing Cascade", "live with Pioneer"
            if kind in ("date", "time", "money"):
                for m in _OWNER_VERBS.finditer(clause):
                    o = m.group("o") or m.group("o2")
                    if o and o[0].isupper():
                        owners.append(o)
            for m in re.finditer(r"\b(?:into|for|on)\s+(?P<o>[A-Z][\w-]+)(?![\w-])", clause):
                if kind in ("money", "rate"):
                    owners.append(m.group("o"))
        found = []
        for o in owners:
            name = self._owner_name(o, people, conv)
            if name:
                found.append(name)
        found = list(dict.fromkeys(found))
        return found[0] if len(found) == 1 else None

    @staticmethod
    def _owner_name(token: str, people: list[str], conv: _Conversation) -> str | None:
        """A token that owns a relation noun, as a subject: a person it names, else
        itself (a project or product), never a function word or a value."""
        for person in people:
            forms = _name_forms(person)
            if token in forms or strip_korean_title(token) in forms:
                return person
        bare = token
        if has_hangul(token):
            for stem in [
                token,
                *particle_stems(token, min_stem=2),
                re.sub(r"(?:부터|까지|에서|으로|로|는|은|이|가|을|를|도|만)$", "", token),
            ]:
                stem = strip_korean_title(stem)
                if stem != token:
                    bare = stem
                    break
            bare = strip_korean_title(bare)
        low = bare.casefold()
        if low in _SENTENCE_START_WORDS or low in _NOT_OWNERS or len(bare) < 2:
            return None
        for person in people:
            if bare in _name_forms(person) or bare == person or bare in person.split():
                return person
        if has_hangul(bare) and not re.fullmatch(r"[가-힣]{2,6}|[A-Za-z][\w-]+", bare):
            return None
        return conv.subjects.get(normalize_name(bare), bare)

    @staticmethod
    def _meeting_with(clause: str, mentions: list[_Mention]) -> str | None:
        persons = [m for m in mentions if m.kind == "person"]
        events = [m for m in mentions if m.kind == "event"]
        if len({p.name for p in persons}) != 1 or not events:
            return None
        p = persons[0]
        for e in events:
            between = clause[e.start : p.start] if e.start < p.start else clause[p.start : e.start]
            if (
                e.start < p.start
                and re.search(r"\b(?:with|w/)\s*$", between.strip() + " ", re.I) is None
                and not re.search(r"\b(?:with|w/)\s+$", clause[: p.start], re.I)
            ):
                continue
            if (
                e.start > p.start
                and not re.search(
                    r"^\S*(?:과|와|이랑|랑|하고)(?:의|는|도)?\s*(?:\S+\s+){0,3}$", between
                )
                and not re.fullmatch(
                    r"\S+(?:\s+[A-Z][\w'’-]*)?(?:['’]s|님|씨|님의)?\s*(?:\S+\s+){0,2}", between
                )
            ):
                continue
            if abs(e.start - p.start) > 40:
                continue
            return p.name
        # "Rafael and I do the sync", "Marlowe moved the standup": the person's meeting.
        meeting = [e for e in events if e.head in _MEETINGS]
        if meeting and re.search(
            rf"\bmeet(?:ing)?\s+(?:with\s+)?{re.escape(p.name)}", clause, re.I
        ):
            return p.name
        if meeting and re.search(
            rf"{re.escape(clause[p.start : p.start + len(p.name.split()[0])])}\S*"
            r"(?:\s+\S+)?\s+(?:and i|& i|and me|asked|wants|moved|pushed|bumped|switched|"
            r"changed|rescheduled|shifted|prefers|needs|rebooked|booked|reserved|"
            r"relocated|meets?)\b|(?:랑|과|와|하고)\s*(?:나|저|내가|제가)",
            clause,
            re.I,
        ):
            return p.name
        return None

    def _has_relation_noun(self, clause: str, v: ValueSpan) -> bool:
        kind = "time" if v.kind == "bare_time" else v.kind
        low = clause.casefold()
        return any(
            kind in kinds and any(_has_word(n.casefold(), low) for n in nouns)
            for _, nouns, kinds in self._relation_table()
            if _ not in ("date", "time", "room")
        )

    @staticmethod
    def _known_mentions(clause: str, conv: _Conversation) -> list[str]:
        """Subjects memory already holds that the clause names (whole words; a Korean word
        may carry a particle)."""
        words = normalize_name(clause).split()
        variants = [[w, *particle_stems(w)] if has_hangul(w) else [w] for w in words]
        out: dict[str, None] = {}
        for i in range(len(words)):
            for n in range(1, 5):
                if i + n > len(words):
                    break
                head = " ".join(words[i : i + n - 1])
                for last in variants[i + n - 1]:
                    name = f"{head} {last}" if head else last
                    if len(name) >= 2 and name in conv.subjects:
                        out[name] = None
        return list(out)

    @staticmethod
    def _names_something_else(clause: str, people: list[str], conv: _Conversation) -> bool:
        """Another thing named in the clause — a subject memory holds that is not the
        topic, or a capitalized word that is no known person, month or day — so the
        topic is not assumed."""
        known = {w.casefold() for p in people for w in p.split()}
        for m in re.finditer(r"(?<![\w'’])([A-Z][\w-]+)", clause):
            w = m.group(1).casefold()
            norm = normalize_name(w)
            if norm == conv.topic or w in known or w in _SENTENCE_START_WORDS:
                continue
            if norm in conv.subjects:
                return True
            head = clause[: m.start()].rstrip()
            if head and head[-1] not in ".!?":
                return True
        return False

    @staticmethod
    def _vocative(clause: str, mentions: list[_Mention]) -> set[str]:
        """Names used to address someone ("Hi Diego!", "Jamal, …", "민준님,")."""
        out = set()
        for m in mentions:
            if m.kind != "person":
                continue
            head = clause[: m.start].strip().casefold()
            tail = clause[m.start :].split(maxsplit=1)
            first_word = tail[0] if tail else ""
            if head in (
                "",
                "hi",
                "hey",
                "hello",
                "thanks",
                "thx",
                "ty",
                "dear",
                "morning",
                "ok",
                "okay",
                "yo",
                "안녕하세요",
                "감사합니다",
            ) and (
                first_word.endswith((",", "!", ":")) or re.match(r"\S+\s*[,!:]", clause[m.start :])
            ):
                out.add(m.name)
        return out

    @staticmethod
    def _partner(record: Record) -> str | None:
        others = [p for p in record.participants if p != record.speaker]
        return others[0] if len(others) == 1 else None

    @staticmethod
    def _fits_topic(v: ValueSpan, conv: _Conversation) -> bool:
        """A value with no owner in its clause continues the topic only when the topic
        already has a key of that type, or is a scheduled thing and the value a time, a
        date or a room."""
        topic = conv.topic
        kind = "time" if v.kind == "bare_time" else v.kind
        kinds = {
            ("time" if k == "bare_time" else k) for (s, _), k in conv.kinds.items() if s == topic
        }
        if kind in kinds:
            return True
        is_event = topic in conv.events
        return is_event and kind in ("time", "date", "room")

    # -- relations -----------------------------------------------------------------------------
    def _relation(
        self, v: ValueSpan, clause: str, subject: str, conv: _Conversation, mentions: list[_Mention]
    ) -> str:
        kind = "time" if v.kind == "bare_time" else v.kind
        low = clause.casefold()
        hits: list[tuple[int, str]] = []
        for rel, nouns, kinds in self._relation_table():
            if kind not in kinds:
                continue
            for noun in nouns:
                noun_cf = noun.casefold()
                if noun_cf not in low:
                    continue
                for m in re.finditer(re.escape(noun_cf), low):
                    if not has_hangul(noun) and (
                        (m.start() > 0 and low[m.start() - 1].isalnum())
                        or (
                            m.end() < len(low)
                            and low[m.end()].isalnum()
                            and not re.match(r"(?:s|es|d|ed|ing)(?![a-z0-9])", low[m.end() :])
                        )
                    ):
                        continue
                    inside = v.start <= m.start() and m.end() <= v.end
                    dist = 0 if inside else min(abs(m.start() - v.end), abs(v.start - m.end()))
                    hits.append((dist, _for_kind(rel, kind)))
        specific = sorted(h for h in hits if not _generic(h[1]))
        any_hit = sorted(hits)
        subj = normalize_name(subject)
        family = _family(kind)
        existing = [rel for (s, rel), k in conv.kinds.items() if s == subj and _family(k) == family]
        cand = specific[0][1] if specific else any_hit[0][1] if any_hit else None
        if cand is None and kind in ("time", "date"):
            heads = [
                m.head for m in mentions if m.kind == "event" and normalize_name(m.name) != subj
            ]
            if len(heads) == 1:
                cand = f"{heads[0]} {kind}"
        if cand is not None and cand in existing:
            return cand
        if existing and (cand is None or _generic(cand)):
            named = [e for e in existing if not _generic(e)]
            if len(named) > 1:
                return ""  # "Orion moved to May 3": its deadline or its launch? Unclear.
            # The attribute the subject already has, named another way ("rate" after
            # "day rate", "time" after "standup time"): one key, the first name kept.
            return existing[-1]
        if existing and len(existing) == 1 and _generic(existing[0]):
            return existing[0]
        return cand or _DEFAULT_RELATION.get(kind, kind)

    def _relation_table(self) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
        """The relation nouns: the user's declared relations first, then the built-in
        ones. Rebuilt only when the registry changed."""
        reg = self.registry
        signature = (len(reg.synonyms), len(reg.value_types), len(reg.cardinality))
        if self._table is None or self._table[0] != signature:
            self._table = (signature, self._build_relation_table())
            self._owner_vocabularies = {}
        return self._table[1]

    def _owner_vocabulary(self, kind: str) -> tuple[list[str], str, frozenset[str]]:
        """For values of ``kind``: the nouns that have an owner (longest first), them as
        one regex alternation, and the words that are never owners. Built once per
        relation table, not per value."""
        table = self._relation_table()
        got = self._owner_vocabularies.get(kind)
        if got is None:
            nouns = sorted(
                {
                    n
                    for rel, ns, kinds in table
                    if kind in kinds
                    for n in ns
                    if rel not in ("date", "time", "room", "place")
                    and len(n) >= 2
                    and not n.startswith("/")
                },
                key=len,
                reverse=True,
            )
            generic = frozenset(
                {n.casefold() for _, ns, _ in table for n in ns}
                | {n.casefold() for n in cues.EVENT_NOUNS_KO}
                | _NOT_OWNERS
            )
            got = (nouns, "|".join(re.escape(n) for n in nouns), generic)
            self._owner_vocabularies[kind] = got
        return got

    def _build_relation_table(self) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
        table = [
            (rel, tuple(dict.fromkeys((rel, *nouns))), kinds)
            for rel, (nouns, kinds) in cues.RELATION_NOUNS.items()
        ]
        for rel, vtype in self.registry.value_types.items():
            syns = [s for s, c in self.registry.synonyms.items() if c == rel]
            kinds = (vtype, "bare_time") if vtype == "time" else (vtype,)
            table.insert(
                0,
                (
                    rel.replace("_", " "),
                    tuple([rel.replace("_", " "), *(s.replace("_", " ") for s in syns)]),
                    kinds,
                ),
            )
        return table

    # -- intents -----------------------------------------------------------------------------
    def _revoke(
        self,
        clause: str,
        record: Record,
        conv: _Conversation,
        people: list[str],
        mentions: list[_Mention],
    ) -> tuple[list[Fact], str]:
        events = list(dict.fromkeys(m.name for m in mentions if m.kind == "event"))
        if len(events) > 1:
            return [], "cancellation of more than one thing"
        subject = (
            events[0]
            if events
            else (conv.subjects.get(conv.topic, conv.topic) if conv.topic else None)
        )
        if subject is None:
            return [], "cancellation without a subject"
        subj = normalize_name(subject)
        keys = [
            (s, r)
            for (s, r), k in conv.kinds.items()
            if s == subj and k in ("date", "time", "bare_time") and (s, r) in conv.heads
        ]
        if not keys:
            return [], f"nothing held to cancel for {subject!r}"
        facts = []
        for s, r in keys:
            facts.append(Fact(subject, r, conv.heads[(s, r)], Intent.REVOKE))
            del conv.heads[(s, r)]
            del conv.kinds[(s, r)]
        return facts, ""

    @staticmethod
    def _corrected_values(clause: str, typed: list[ValueSpan]) -> list[ValueSpan]:
        """'not 14, it's 16' / '14 아니고 16': the value after the negation is the one."""
        if len(typed) < 2:
            return typed
        m = re.search(r"\bnot\b|아니고|아니라|말고|→|->", clause, re.I)
        if m:
            after = [v for v in typed if v.start >= m.end()]
            before = [v for v in typed if v.end <= m.start()]
            if "not" in m.group(0).casefold():
                # "not X, it's Y": the negated value follows "not"
                return (
                    [v for v in typed if v is not (after[0] if after else None)]
                    if len(after) >= 2
                    else before or after
                )
            return after or typed
        m2 = re.search(r"\b(?:the|a)?\s*(\S+)\s+was a typo|오타", clause, re.I)
        if m2:
            return [v for v in typed if v.start > m2.end()] or typed[:1]
        return typed

    @staticmethod
    def _from_value(clause: str, typed: list[ValueSpan]) -> ValueSpan | None:
        """In "from X to Y" / "X에서 Y로", X (the value being replaced)."""
        if len(typed) < 2:
            return None
        for pat in (_FROM_TO_EN, _FROM_TO_KO):
            m = pat.search(clause)
            if m:
                a = [v for v in typed if m.start("a") <= v.start < m.end("a")]
                b = [v for v in typed if m.start("b") <= v.start < m.end("b")]
                if len(a) == 1 and len(b) == 1 and _same_type(a[0], b[0]):
                    return a[0]
        return None

    @staticmethod
    def _carry_unit(clause: str, typed: list[ValueSpan]) -> list[ValueSpan]:
        """'£45 a session, now £50' / '1회 7만원에서 7만5천원으로': a bare amount next to a
        rate of the same currency is that rate."""
        rates = [v for v in typed if v.kind == "rate"]
        if len(rates) != 1:
            return typed
        unit = rates[0].value.split("/", 1)[1]
        currency = rates[0].value.split("/", 1)[0].split()[-1]
        return [
            ValueSpan(v.start, v.end, "rate", f"{v.value}/{unit}", v.text)
            if v.kind == "money" and v.value.endswith(currency)
            else v
            for v in typed
        ]
        return None

    @staticmethod
    def _from_numbers(
        numbers: list[ValueSpan], conv: _Conversation, mentions: list[_Mention]
    ) -> list[ValueSpan]:
        """An accepted bare number ("ok 11 it is", "7:30 it is"): the proposal it repeats,
        or an hour of the topic's time."""
        out = []
        for n in numbers:
            match = [
                p
                for p in conv.pending
                if p.kind in ("time", "bare_time")
                and (p.text == n.text or p.value.split(":")[0].lstrip("0") == n.text)
            ]
            if match:
                out.append(ValueSpan(n.start, n.end, match[0].kind, match[0].value, n.text))
                continue
            has_time = any(
                s == conv.topic and k in ("time", "bare_time") for (s, _), k in conv.kinds.items()
            )
            if has_time and n.text.isdigit() and 1 <= int(n.text) <= 12:
                out.append(ValueSpan(n.start, n.end, "bare_time", f"{int(n.text):02d}:00", n.text))
        return out


# -- names ------------------------------------------------------------------------------------
def _name_forms(person: str) -> list[str]:
    """How a person may be called in a message, most specific first."""
    full = strip_korean_title(person.strip())
    forms = [full]
    parts = full.split()
    if len(parts) >= 2:
        forms += [parts[0], parts[-1]] if not has_hangul(full) else [parts[-1]]
    elif has_hangul(full) and len(full) in (3, 4):
        forms.append(full[1:] if len(full) == 3 else full[2:])  # 김민준 → 민준, 남궁민수 → 민수
    return [f for f in dict.fromkeys(forms) if len(f) >= 2]


def _find_form(form: str, folded: str, tokens: list[tuple[str, int]]) -> int | None:
    f = form.casefold()
    if f not in folded:
        return None
    if " " in f:
        i = folded.find(f)
        return i if i >= 0 else None
    for tok, pos in tokens:
        t = tok.casefold().rstrip("'’")
        t = re.sub(r"['’]s$", "", t)
        if t == f:
            return pos
        if has_hangul(tok):
            bare = strip_korean_title(tok)
            stems = [strip_korean_title(s) for s in particle_stems(tok, min_stem=2)]
            if bare == form or form in stems:
                return pos
            if tok.startswith(form) and _korean_suffix_ok(tok[len(form) :]):
                return pos
    return None


_KO_NAME_SUFFIX = re.compile(
    r"^(?:님|씨|이|아|야|이가|이는|이랑|이도|이한테|이의|이네|이형|형|누나|언니|오빠|선배|"
    r"후배|쌤|샘|팀장|팀장님|대리|대리님|과장|과장님|부장|부장님|차장|차장님|실장|실장님|대표|"
    r"대표님|사장|사장님|선생님|매니저|매니저님|프로|프로님|책임|책임님|선임|선임님|수석|"
    r"수석님)?(?:이|가|은|는|을|를|의|에게|한테|께|께서|랑|이랑|과|와|하고|도|만|요|님)?"
    r"(?:의|는|도|만|요)?$"
)


def _korean_suffix_ok(rest: str) -> bool:
    return bool(_KO_NAME_SUFFIX.match(rest))


# Value kinds that name the same sort of attribute, and the relation names that say
# nothing more than the kind (a later, specific name does not split the key).
_FAMILY = {"rate": "money", "money": "money"}
_GENERIC_RELATIONS = frozenset(
    {
        "time",
        "date",
        "room",
        "place",
        "price",
        "rate",
        "day rate",
        "hourly rate",
        "duration",
        "headcount",
        "quantity",
        "link",
        "phone",
        "email",
    }
)


def _family(kind: str) -> str:
    kind = "time" if kind == "bare_time" else kind
    return _FAMILY.get(kind, kind)


def _generic(relation: str) -> bool:
    """Names that say no more than the value's kind: "rate", "time", "standup time"."""
    if relation in _GENERIC_RELATIONS:
        return True
    head, _, tail = relation.rpartition(" ")
    return tail in ("time", "date") and (head in cues.EVENT_NOUNS_EN or head in cues.EVENT_NOUNS_KO)


def _for_kind(relation: str, kind: str) -> str:
    """One relation noun, one key per kind: 'delivery date' of a time is 'delivery time'."""
    if kind == "time" and relation.endswith(" date"):
        return relation[: -len(" date")] + " time"
    if kind == "date" and relation.endswith(" time"):
        return relation[: -len(" time")] + " date"
    if kind in ("time", "date") and relation in ("deadline",) and kind == "time":
        return "deadline time"
    return relation


def _has_word(noun: str, low: str) -> bool:
    if has_hangul(noun):
        return noun in low
    return re.search(rf"(?<![\w]){re.escape(noun)}(?:s|es)?(?![\w])", low) is not None


def _same_type(a: ValueSpan, b: ValueSpan) -> bool:
    group = {"bare_time": "time", "money": "rate"}
    return group.get(a.kind, a.kind) == group.get(b.kind, b.kind)


def _dedupe(facts: list[Fact], registry: RelationRegistry) -> list[Fact]:
    seen: dict[tuple[str, str, str], Fact] = {}
    for f in facts:
        many = registry.is_set_valued(registry.align(f.relation))
        # The later statement of one key wins; members of a set-valued relation stay apart.
        seen[(normalize_name(f.subject), f.relation, f.value if many else "")] = f
    return list(seen.values())
