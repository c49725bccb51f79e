"""The controlled personal-memory benchmark of "Stale, Misattributed, or Late", as a seeded,
deterministic generator.

What it builds (the block study §4, §6–§9), in English or Korean template sentences:

- **Revision chains** (default 160): one slot of one person or project, asserted once and
  revised 0–4 times (80% of chains revised). People carry *meeting time*, *meeting room*
  and *day rate*; projects carry *deadline*, *launch date* and *budget cap*. A person's
  meeting time and room share one noun ("standup"), so only the value type — and in a
  request only the ending ("is at" vs "is in") — tells the two slots apart.
- **Fillers** (default 1,000): ticket assignments, deploy notices, equipment checks. They
  name people (co-mention noise) but hold no value and no slot noun.
- **Requests** (default 240): an unfinished message cut right before the value ("the
  standup with Minjun is at", "민준님이랑 하는 스탠드업은 몇 시에"), a conversation partner and
  a time. People are addressed by given name only, so two people who share a given name
  and a slot make each other's values the misattribution targets: 40–50 requests per
  instance are such ambiguous ones. A share of chains is discussed with a colleague
  rather than with the person, and requests about them come from that colleague
  (third-party requests).
- **Values are unique per instance** at token boundaries ("9:30" ≠ "19:30", "Dec 2" ≠
  "Dec 24"), so a block's stale / misattributed content is read off by string match
  (``graphmem_bench.block_metrics``). The generator checks this on every instance.
- **Key noise** on the gold facts (seed §6: injected "right after extraction", so texts are
  unchanged): a *missed merge* (probability p, revisions only) writes the subject in a
  variant form that normalizes to another key, so the old value stays current under the
  old key; a *false merge* (probability q) files the fact under a wrong key — by default
  another slot of the same entity, as the seed defines it, or (``false_merge_target=
  "namesake"``) the same slot of another entity sharing the given name — where it
  overwrites that key's current value.
- **Out of order** (share of chains): their messages arrive in a shuffled order while
  ``stated_at`` keeps the true order, so a transaction-time store lets a late old value
  close the new one and a valid-time store does not.
- **Hard slice** (seed §7–§8): 60 pairs of namesakes whose meeting-time facts share slot,
  noun, template and day; one of each pair also has a meeting room. Requests: each
  person's meeting time (answerable, the rival's time is the trap) and the room of the
  person whose room was never stated (60 unanswerable requests: the rival's room is the
  only room a top-k retriever can find).

Noise, ordering and the base instance draw from separate random streams, so instances
that differ only in p, q or the out-of-order share have identical texts, values,
timelines and requests, and a larger p (or q) only adds noisy facts: paired comparisons
and monotone curves come for free.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from graphmem.domain.model import Fact, Intent, Record, to_utc_iso
from graphmem_bench.block_metrics import mentions

__all__ = [
    "PERSON_SLOTS",
    "PROJECT_SLOTS",
    "REQUEST_CUES",
    "SLOTS",
    "Chain",
    "Instance",
    "Request",
    "generate",
    "josa",
    "read_requested_slot",
    "request_text",
]

Lang = Literal["en", "ko"]
FalseMergeTarget = Literal["slot", "namesake"]

PERSON_SLOTS: tuple[str, ...] = ("meeting time", "meeting room", "day rate")
PROJECT_SLOTS: tuple[str, ...] = ("deadline", "launch date", "budget cap")
# Relation names match graphmem.extract.slots.DEFAULT_SLOTS, so gold facts and the rule
# extractor's facts land on the same keys.
SLOTS: tuple[str, ...] = PERSON_SLOTS + PROJECT_SLOTS

USER = "user"  # the one speaker of every chain message: one source never contests itself
PERSON_CHAIN_SHARE = 0.6  # of chains; the rest are project chains
AMBIGUOUS_CHAIN_SHARE = 30 / 96  # person chains that get a same-slot namesake
AMBIGUOUS_REQUESTS = (40, 50)  # per 240 requests (seed §4)
HARD_PAIRS = 60
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

# --------------------------------------------------------------------------- names


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_EN_GIVEN = _words(
    "Minjun Seoyeon Jiho Haeun Doyun Alex Taylor Morgan Casey Riley Avery Quinn Harper Rowan "
    "Emerson Finley Hayden Jamie Kendall Logan Peyton Reese Sage Skyler Blake Cameron Dakota "
    "Drew Elliot Frankie Hollis Jesse Kai Marlowe Noel Oakley Remy Sasha Tatum Arden Bailey "
    "Charlie Devon Ellis Glen Jules Kit Milan Nico Oren Priya Ravi Sanjay Tomas Uma Vera Wren "
    "Xavier Yara Zane Aiden Bella Carlos Diana Ethan Fatima Gabriel Hana Ivan Jasmine Kenji "
    "Lucia Mateo Nadia Omar Paula Rafael Sofia Theo Valeria Wei Yusuf Zara Amara Bruno Chloe "
    "Dmitri Elena Felix Greta Hugo Ingrid Jonah Kiran Leila Marco Nina Oscar Petra Rosa "
    "Stefan Tara Victor Willa Yuki"
)
_EN_SURNAMES = _words(
    "Kim Lee Park Choi Rivera Patel Nguyen Garcia Smith Chen Okafor Johnson Brown Silva "
    "Kowalski Haddad Tanaka Novak Rossi Dubois Larsen Costa Ibrahim Murphy Schmidt Alvarez "
    "Sato Mensah Ferreira Jensen Walsh Moreau"
)
_EN_PROJECTS = _words(
    "Orion Atlas Borealis Cobalt Juniper Falcon Nimbus Quasar Tundra Sierra Helix Mosaic "
    "Beacon Zephyr Lumen Vortex Cascade Ember Granite Harbor Kestrel Meridian Onyx Pioneer "
    "Raven Summit Tidal Polaris Saffron Willow"
)
# Given names that no Korean title strips ("…양", "…님") and no particle reading splits.
_KO_GIVEN = _words(
    "민준 서연 지호 서준 하은 도윤 지우 예준 수아 시우 하준 지아 주원 서윤 지민 은우 지안 하윤 "
    "건우 윤서 우진 민서 선우 채원 현우 지유 연우 서아 유준 하린 정우 수빈 승우 지원 승현 다은 "
    "시윤 예린 준서 소율 유찬 서현 지환 예은 승민 가은 민재 수민 지훈 예서 준우 나은 이준 하율 "
    "민성 채은 현준 은서 태윤 지율 동현 유나 재윤 다인 시후 서영 준혁 민지 성민 윤아 재원 소윤 "
    "태민 혜원 도현 지은 성훈 수연 경민 미진 상우 정민 영호 은지 재민 혜진 동욱 세영 진우 소연 "
    "태호 가영 종현 우빈 서희 재현 나연 민호 유진 규리 한결 주하 예나 시현 도하"
)
_KO_SURNAMES = _words(
    "김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 홍 전 고 문 손 배 백 허 남 심 노"
)
_KO_PROJECTS = _words(
    "초롱 한빛 누리 가람 다온 별빛 새솔 라온 미르 아라 나래 도담 솔빛 늘봄 한울 푸름 바다 구름 "
    "마루 단비 해솔 온누리 여울 까치 두리 모아 산들 하랑 시루 가온 너울"
)

_NOUNS: dict[str, tuple[str, ...]] = {
    "en": ("standup", "weekly sync", "planning meeting"),
    "ko": ("스탠드업", "주간 회의", "기획 미팅"),
}
_SERVICES = (
    "billing-api",
    "search",
    "auth-gateway",
    "checkout",
    "notifications",
    "payments",
    "reporting",
    "mobile-app",
)

# ----------------------------------------------------------------------- particles

# Final consonant (jongseong index) of the Korean reading of a trailing digit or letter:
# 0 영(ㅇ) 1 일(ㄹ) 3 삼(ㅁ) 6 육(ㄱ) 7 칠(ㄹ) 8 팔(ㄹ); L 엘, M 엠, N 엔, R 알.
_DIGIT_FINAL = {"0": 21, "1": 8, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": 8, "8": 8, "9": 0}
_LATIN_FINAL = {"l": 8, "m": 16, "n": 4, "r": 8}
_RIEUL = 8


def _final(word: str) -> int:
    """Jongseong index of the word's last sound (0: ends in a vowel, 8: ㄹ)."""
    for ch in reversed(word.strip()):
        if "가" <= ch <= "힣":
            return (ord(ch) - 0xAC00) % 28
        if ch.isdigit():
            return _DIGIT_FINAL.get(ch, 0)
        if ch.isascii() and ch.isalpha():
            return _LATIN_FINAL.get(ch.lower(), 0)
        if ch.isspace() or not ch.isalnum():
            continue
        return 0
    return 0


def josa(word: str, pair: str) -> str:
    """The particle of ``pair`` ("은/는", "이/가", "을/를", "과/와", "이랑/랑", "이에요/예요",
    "으로/로") that follows ``word``: the first form after a final consonant, the second
    after a vowel; 으로/로 takes 로 after a vowel *or* ㄹ ("12월 2일로", "16C호로",
    "10시 45분으로"). Digits and Latin letters are read the Korean way ("OPS-1432가")."""
    with_final, _, without_final = pair.partition("/")
    if not without_final:
        raise ValueError(f"particle pair must look like '은/는', got {pair!r}")
    final = _final(word)
    if pair == "으로/로":
        return "로" if final in (0, _RIEUL) else "으로"
    return with_final if final else without_final


_SLOT_RE = re.compile(r"\{(\w+)(?::([^}]+))?\}")


def _fill(template: str, **words: str) -> str:
    """Fill ``{key}`` with a word and ``{key:은/는}`` with the word plus its particle."""

    def sub(m: re.Match[str]) -> str:
        word = words[m.group(1)]
        return word + (josa(word, m.group(2)) if m.group(2) else "")

    return _SLOT_RE.sub(sub, template)


# ------------------------------------------------------------------------ templates

# Chain sentences: (assert templates, update templates) per slot. {e} entity as stored
# (EN), {p} person + 님 (KO), {n} meeting noun, {v} value. Every sentence names exactly
# one entity, one slot noun and one value of the slot's type, so the rule extractor
# (graphmem.extract.slots) reads back the gold fact.
_CHAIN: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "en": {
        "meeting time": (
            (
                "The {n} with {e} is at {v}.",
                "Heads up: the {n} with {e} is at {v}.",
                "Booked the {n} with {e} for {v}.",
            ),
            (
                "The {n} with {e} is moved to {v}.",
                "Update: the {n} with {e} is now at {v}.",
                "The {n} with {e} was rescheduled to {v}.",
            ),
        ),
        "meeting room": (
            ("The {n} with {e} is in {v}.", "Heads up: the {n} with {e} is in {v}."),
            (
                "Update: the {n} with {e} is now in {v}.",
                "The {n} with {e} has moved and is now in {v}.",
            ),
        ),
        "day rate": (
            ("{e}'s day rate is {v}.", "Agreed with {e}: the day rate is {v}."),
            ("{e}'s day rate is now {v}.", "Update: {e}'s day rate changed to {v}."),
        ),
        "deadline": (
            ("The {e} deadline is {v}.", "The deadline for {e} is {v}."),
            ("The {e} deadline moved to {v}.", "Update: the {e} deadline is now {v}."),
        ),
        "launch date": (
            ("The {e} launch date is {v}.", "{e} is set to launch on {v}."),
            ("The {e} launch date was pushed to {v}.", "Update: the {e} launch date is now {v}."),
        ),
        "budget cap": (
            ("The {e} budget cap is {v}.", "The budget cap for {e} is {v}."),
            ("The {e} budget cap changed to {v}.", "Update: the {e} budget cap is now {v}."),
        ),
    },
    "ko": {
        "meeting time": (
            (
                "{p:과/와}의 {n:은/는} {v:이에요/예요}.",
                "{p:과/와}의 {n:은/는} {v}에 시작합니다.",
                "{p:과/와}의 {n} 시간은 {v}입니다.",
            ),
            (
                "{p:과/와}의 {n:이/가} {v:으로/로} 변경됐습니다.",
                "{p:과/와}의 {n} 시간이 이제 {v:으로/로} 바뀌었어요.",
                "{p:과/와}의 {n:은/는} 이제 {v}에 시작합니다.",
            ),
        ),
        "meeting room": (
            ("{p:과/와}의 {n:은/는} {v}에서 해요.", "{p:과/와}의 {n} 장소는 {v:이에요/예요}."),
            (
                "{p:과/와}의 {n} 장소가 {v:으로/로} 변경됐습니다.",
                "{p:과/와}의 {n:은/는} 이제 {v}에서 해요.",
            ),
        ),
        "day rate": (
            ("{p} 일당은 {v}입니다.", "{p}의 일당은 {v:이에요/예요}."),
            ("{p} 일당이 이제 {v:으로/로} 바뀌었어요.", "{p}의 일당이 {v:으로/로} 변경됐습니다."),
        ),
        "deadline": (
            ("{e} 마감일은 {v}입니다.", "{e}의 마감일은 {v:이에요/예요}."),
            ("{e} 마감일이 {v:으로/로} 변경됐습니다.", "{e} 마감일이 이제 {v:으로/로} 바뀌었어요."),
        ),
        "launch date": (
            ("{e} 출시일은 {v}입니다.", "{e}의 출시일은 {v:이에요/예요}."),
            ("{e} 출시일이 {v:으로/로} 변경됐습니다.", "{e} 출시일이 이제 {v:으로/로} 바뀌었어요."),
        ),
        "budget cap": (
            ("{e} 예산 한도는 {v}입니다.", "{e}의 예산 한도는 {v:이에요/예요}."),
            (
                "{e} 예산 한도가 {v:으로/로} 변경됐습니다.",
                "{e} 예산 한도가 이제 {v:으로/로} 바뀌었어요.",
            ),
        ),
    },
}

# Requests: unfinished messages. {m} the given name (EN) or given name + 님 (KO), {n} the
# meeting noun, {e} the project. Variant i is used for the i-th request on one chain.
_REQUEST: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "meeting time": (
            "the {n} with {m} is at",
            "quick check: the {n} with {m} is at",
            "just to confirm, the {n} with {m} is at",
        ),
        "meeting room": (
            "the {n} with {m} is in",
            "quick check: the {n} with {m} is in",
            "just to confirm, the {n} with {m} is in",
        ),
        "day rate": (
            "{m}'s day rate is",
            "quick check: {m}'s day rate is",
            "just to confirm, {m}'s day rate is",
        ),
        "deadline": (
            "the {e} deadline is",
            "quick check: the {e} deadline is",
            "just to confirm, the {e} deadline is",
        ),
        "launch date": (
            "the {e} launch date is",
            "quick check: the {e} launch date is",
            "just to confirm, the {e} launch date is",
        ),
        "budget cap": (
            "the {e} budget cap is",
            "quick check: the {e} budget cap is",
            "just to confirm, the {e} budget cap is",
        ),
    },
    "ko": {
        "meeting time": (
            "{m:이랑/랑} 하는 {n:은/는} 몇 시에",
            "혹시 {m:이랑/랑} 하는 {n:은/는} 몇 시에",
            "참, {m:이랑/랑} 하는 {n:은/는} 몇 시에",
        ),
        "meeting room": (
            "{m:이랑/랑} 하는 {n:은/는} 어디서",
            "혹시 {m:이랑/랑} 하는 {n:은/는} 어디서",
            "참, {m:이랑/랑} 하는 {n:은/는} 어디서",
        ),
        "day rate": ("{m} 일당은", "혹시 {m} 일당은", "참, {m} 일당은"),
        "deadline": ("{e} 마감일은", "혹시 {e} 마감일은", "참, {e} 마감일은"),
        "launch date": ("{e} 출시일은", "혹시 {e} 출시일은", "참, {e} 출시일은"),
        "budget cap": ("{e} 예산 한도는", "혹시 {e} 예산 한도는", "참, {e} 예산 한도는"),
    },
}

# How the requested slot is read from a request (the slot gate's input, seed §8): by
# noun where the noun is the slot's own, by ending where the meeting noun is shared.
REQUEST_CUES: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "meeting time": ("ending", "is at"),
        "meeting room": ("ending", "is in"),
        "day rate": ("noun", "day rate"),
        "deadline": ("noun", "deadline"),
        "launch date": ("noun", "launch date"),
        "budget cap": ("noun", "budget cap"),
    },
    "ko": {
        "meeting time": ("ending", "몇 시에"),
        "meeting room": ("ending", "어디서"),
        "day rate": ("noun", "일당"),
        "deadline": ("noun", "마감일"),
        "launch date": ("noun", "출시일"),
        "budget cap": ("noun", "예산 한도"),
    },
}

_FILLERS: dict[str, tuple[str, ...]] = {
    "en": (
        "Ticket {t} is assigned to {e}.",
        "Deploy of {s} finished without errors, thanks {e}.",
        "{e} checked the projector on the third floor.",
        "{e} restocked the printer paper.",
        "Can {e} look over the onboarding doc?",
        "The {s} build is green again.",
        "Laptop inventory is done and {e} has the list.",
        "Please send the expense report to {e}.",
        "{e} rotated the API keys for {s}.",
        "{e} and {f} are pairing on the {s} migration.",
    ),
    "ko": (
        "티켓 {t:이/가} {p}에게 배정됐어요.",
        "{s} 배포가 오류 없이 끝났습니다. {p} 고마워요.",
        "{p:이/가} 프로젝터 점검을 마쳤어요.",
        "{p:이/가} 프린터 용지를 채워 두었습니다.",
        "{p}, 온보딩 문서 검토 부탁드려요.",
        "{s} 빌드가 다시 정상입니다.",
        "노트북 재고 조사가 끝났고 목록은 {p:이/가} 갖고 있어요.",
        "경비 보고서는 {p}께 보내 주세요.",
        "{p:이/가} {s} API 키를 교체했습니다.",
        "{p:과/와} {q:이/가} {s} 마이그레이션을 같이 하고 있어요.",
    ),
}


def request_text(
    lang: str, slot: str, mention: str, noun: str | None = None, variant: int = 0
) -> str:
    """The unfinished message asking for ``slot``.

    ``mention`` is the given name for a person ("Minjun", "민준") or the project name;
    ``noun`` the meeting noun for the two meeting slots.
    """
    templates = _REQUEST[_check_lang(lang)][slot]
    template = templates[variant % len(templates)]
    if slot in PERSON_SLOTS:
        m = mention + "님" if lang == "ko" else mention
        return _fill(template, m=m, n=noun or _NOUNS[lang][0])
    return _fill(template, e=mention)


def read_requested_slot(text: str, lang: str | None = None) -> str | None:
    """The slot a generated request asks for, from its noun or its ending (seed §8).

    The reference reading for a slot gate: "deadline" / "마감일" etc. name their slot;
    the meeting nouns are shared by time and room, so "… is at" / "… 몇 시에" means the
    time and "… is in" / "… 어디서" the room. The seed reports this rule matched the
    generator's slot on every request; the tests check the same here.
    """
    s = text.strip()
    langs = [lang] if lang else ["ko" if re.search(r"[\uac00-\ud7a3]", s) else "en"]
    for lg in langs:
        cues = REQUEST_CUES[_check_lang(lg)]
        for slot, (kind, cue) in cues.items():
            if kind == "noun" and cue in s:
                return slot
        for slot, (kind, cue) in cues.items():
            if kind == "ending" and s.endswith(cue):
                return slot
    return None


def _check_lang(lang: str) -> Lang:
    if lang not in ("en", "ko"):
        raise ValueError(f"lang must be 'en' or 'ko', got {lang!r}")
    return lang  # type: ignore[return-value]


# --------------------------------------------------------------------------- values


def _value_pool(lang: str, slot: str) -> list[str]:
    """Every value a slot may take in one language (shuffled per instance, drawn once)."""
    ko = lang == "ko"
    if slot == "meeting time":  # minute 0 left out: "10시" would be a token of "10시 15분"
        return [
            f"{h}시 {m}분" if ko else f"{h}:{m:02d}" for h in range(7, 20) for m in range(1, 60)
        ]
    if slot == "meeting room":  # letters the rule extractor's room pattern accepts
        return [
            f"{f}{c}호" if ko else f"{f}{c}" for f in range(2, 40) for c in "ACDEFHJLNPRSTUVWXYZ"
        ]
    if slot in ("deadline", "launch date"):
        days = [datetime(2027, 1, 1) + timedelta(days=i) for i in range(365)]
        return [f"{d.month}월 {d.day}일" if ko else f"{d:%b} {d.day}" for d in days]
    if slot == "day rate":
        return (
            [f"{n}만 원" for n in range(30, 251)]
            if ko
            else [f"${n:,}" for n in range(400, 2001, 5)]
        )
    if slot == "budget cap":
        return (
            [f"{n:,}만 원" for n in range(1000, 10000, 10)]
            if ko
            else [f"${n:,}" for n in range(10_000, 500_001, 500)]
        )
    raise ValueError(f"unknown slot {slot!r}")


# ---------------------------------------------------------------------- data types


@dataclass(frozen=True)
class Chain:
    """One key's gold history: the values in the order they were true."""

    index: int
    entity: str
    kind: Literal["person", "project"]
    slot: str
    noun: str | None
    values: tuple[str, ...]
    record_ids: tuple[str, ...]  # in true (stated) order
    partner: str  # the conversation the chain's messages belong to
    third_party: bool
    shuffled: bool = False
    hard: bool = False

    @property
    def revisions(self) -> int:
        return len(self.values) - 1


@dataclass(frozen=True)
class Request:
    """One request: an unfinished message, its partner and time, and the gold labels.

    ``entity`` is the gold entity (None when unanswerable); ``intended`` is the person
    the request is about even then. ``answer`` is the current value, ``stale_values``
    every earlier value of the asked key, ``other_values`` every value (current or
    superseded) of the same slot of the *other* entities answering to the same mention
    — the misattribution targets. ``ambiguous`` means there is at least one.
    """

    id: str
    text: str
    partner: str
    now: str
    entity: str | None
    slot: str
    answer: str | None
    stale_values: tuple[str, ...]
    other_values: tuple[str, ...]
    answerable: bool
    ambiguous: bool
    third_party: bool
    hard: bool
    lang: str
    mention: str
    intended: str
    chain: int | None = None

    @property
    def revised(self) -> bool:
        return bool(self.stale_values)


@dataclass
class Instance:
    """One generated benchmark instance.

    ``records`` in arrival order (``pos``); ``gold`` maps a chain record's id to its true
    fact (what ``facts`` would hold without key noise); ``noise`` maps a record id to
    "missed" or "false" where key noise was applied; ``first_names`` maps every entity to
    the name requests use for it (given name, or the project name).
    """

    records: list[Record]
    requests: list[Request]
    entities: list[str]
    lang: str
    seed: int
    settings: dict[str, Any]
    chains: list[Chain] = field(default_factory=list)
    gold: dict[str, Fact] = field(default_factory=dict)
    noise: dict[str, str] = field(default_factory=dict)
    first_names: dict[str, str] = field(default_factory=dict)

    def summary(self) -> dict[str, int]:
        """Counts a report prints next to the metrics."""
        noise = Counter(self.noise.values())
        return {
            "records": len(self.records),
            "chains": len(self.chains),
            "revised_chains": sum(c.revisions > 0 for c in self.chains),
            "chain_messages": sum(len(c.record_ids) for c in self.chains),
            "fillers": len(self.records) - sum(len(c.record_ids) for c in self.chains),
            "shuffled_chains": sum(c.shuffled for c in self.chains),
            "requests": len(self.requests),
            "ambiguous": sum(r.ambiguous for r in self.requests),
            "third_party": sum(r.third_party for r in self.requests),
            "unanswerable": sum(not r.answerable for r in self.requests),
            "missed_merges": noise["missed"],
            "false_merges": noise["false"],
        }


@dataclass
class _Entity:
    name: str
    kind: Literal["person", "project"]
    first: str  # what requests call it
    variant: str  # a spelling that normalizes to another key (missed merge)
    noun: str | None = None


@dataclass
class _ChainSpec:
    entity: _Entity
    slot: str
    n_rev: int
    partner: str
    third_party: bool
    values: list[str] = field(default_factory=list)
    templates: list[int] = field(default_factory=list)
    seconds: list[int] = field(default_factory=list)  # arrival second per true-order msg
    stated: list[int] = field(default_factory=list)  # stated second per true-order msg
    shuffled: bool = False
    hard: bool = False


# --------------------------------------------------------------------------- generate


def generate(
    seed: int,
    lang: str = "en",
    n_chains: int = 160,
    revised_share: float = 0.8,
    max_revisions: int = 4,
    n_fillers: int = 1000,
    n_requests: int = 240,
    missed_merge: float = 0.0,
    false_merge: float = 0.0,
    out_of_order: float = 0.0,
    keyed: bool = True,
    hard_slice: bool = False,
    *,
    paraphrased: bool = False,
    paraphrase_set: Literal["dev", "heldout"] = "dev",
    false_merge_target: FalseMergeTarget = "slot",
    third_party_share: float = 0.25,
    hard_pairs: int = HARD_PAIRS,
    days: int = 120,
) -> Instance:
    """One instance of the block study's controlled benchmark (see the module docstring).

    ``keyed=False`` gives the unkeyed variant: the same texts with ``facts=None``, so a
    store keys nothing (the seed's two stores "receive the same drafts").
    ``paraphrased=True`` writes the chain messages with ``graphmem_bench.paraphrases``
    (templates written blind, never read by the extractors) instead of the templates the
    slot rules were written against; the choice draws from its own random stream, so
    values, timelines and requests stay the same. ``paraphrase_set``: ``dev``
    (``paraphrases.py``, read by the developers while building the chat extractor) or
    ``heldout`` (``paraphrases_heldout.py``, written later by another blind helper and
    never read by them). With
    ``hard_slice=True`` the instance is the hard slice instead of the main benchmark:
    ``hard_pairs`` namesake pairs and 3 requests per pair (``n_chains``, ``n_requests``,
    ``revised_share``, ``max_revisions`` and ``out_of_order`` do not apply: its chains are
    single messages). ``out_of_order`` is the share
    of *all* chains to shuffle, taken from the revised chains (a one-message chain has
    no order), capped at their number. A false merge with ``false_merge_target=
    "namesake"`` only applies to entities that have a namesake; its rate is over those.
    """
    lang = _check_lang(lang)
    for name, p in (
        ("revised_share", revised_share),
        ("missed_merge", missed_merge),
        ("false_merge", false_merge),
        ("out_of_order", out_of_order),
        ("third_party_share", third_party_share),
    ):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"{name} must be in [0, 1], got {p}")
    for name, n in (
        ("n_chains", n_chains),
        ("n_fillers", n_fillers),
        ("n_requests", n_requests),
        ("max_revisions", max_revisions),
        ("hard_pairs", hard_pairs),
        ("days", days),
    ):
        if n < 0:
            raise ValueError(f"{name} must be >= 0, got {n}")
    if days < 1:
        raise ValueError("days must be >= 1")
    if false_merge_target not in ("slot", "namesake"):
        raise ValueError(
            f"false_merge_target must be 'slot' or 'namesake', got {false_merge_target!r}"
        )
    settings: dict[str, Any] = {
        "n_chains": n_chains,
        "revised_share": revised_share,
        "max_revisions": max_revisions,
        "n_fillers": n_fillers,
        "n_requests": n_requests,
        "missed_merge": missed_merge,
        "false_merge": false_merge,
        "out_of_order": out_of_order,
        "keyed": keyed,
        "hard_slice": hard_slice,
        "false_merge_target": false_merge_target,
        "third_party_share": third_party_share,
        "hard_pairs": hard_pairs,
        "days": days,
    }
    # The stream name keeps the package's old name: it seeds every instance, so renaming
    # it would change the benchmark's texts, values and timelines.
    stream = f"graphmem.bench.personal/{lang}/{seed}/{'hard' if hard_slice else 'main'}"
    rng = random.Random(stream + "/base")
    if hard_slice:
        people, projects, specs = _hard_specs(rng, lang, hard_pairs, days)
    else:
        people, projects, specs = _main_specs(
            rng, lang, n_chains, revised_share, max_revisions, third_party_share
        )
    _draw_values(rng, lang, specs)
    filler_texts = _fillers(rng, lang, people, n_fillers)
    if hard_slice:
        filler_seconds = _hard_timeline(rng, specs, n_fillers, days)
    else:
        filler_seconds = _main_timeline(rng, specs, n_fillers, days)
        _shuffle_order(random.Random(stream + "/order"), specs, out_of_order, len(specs))
    prefix = f"{lang}{seed}{'h' if hard_slice else ''}"
    chains = _chains(specs, prefix)
    namesakes = _namesakes(people)
    gold, noisy, noise = _facts(
        random.Random(stream + "/noise"),
        specs,
        chains,
        namesakes,
        missed_merge,
        false_merge,
        false_merge_target,
    )
    records = _records(
        lang,
        specs,
        chains,
        filler_texts,
        filler_seconds,
        noisy,
        keyed,
        prefix,
        random.Random(stream + "/paraphrase") if paraphrased else None,
        paraphrase_set,
    )
    now = _iso(START + timedelta(days=days + 1))
    if hard_slice:
        requests = _hard_requests(rng, lang, specs, chains, namesakes, now, prefix)
    else:
        requests = _main_requests(rng, lang, specs, chains, namesakes, now, prefix, n_requests)
    _check_unique_values(records, requests, chains)
    entities = sorted({e.name for e in people} | {e.name for e in projects})
    first_names = {e.name: e.first for e in (*people, *projects)}
    return Instance(
        records, requests, entities, lang, seed, settings, chains, gold, noise, first_names
    )


# ------------------------------------------------------------------ main benchmark


def _split(n: int, k: int, rng: random.Random) -> list[int]:
    """n items over k bins as evenly as possible, the larger bins chosen at random."""
    counts = [n // k] * k
    for i in rng.sample(range(k), n % k):
        counts[i] += 1
    return counts


def _main_specs(
    rng: random.Random,
    lang: str,
    n_chains: int,
    revised_share: float,
    max_revisions: int,
    third_party_share: float,
) -> tuple[list[_Entity], list[_Entity], list[_ChainSpec]]:
    n_person = round(n_chains * PERSON_CHAIN_SHARE)
    n_project = n_chains - n_person
    person_counts = dict(zip(PERSON_SLOTS, _split(n_person, 3, rng), strict=True))
    project_counts = dict(zip(PROJECT_SLOTS, _split(n_project, 3, rng), strict=True))

    # People: some hold a meeting's time *and* room (one noun, two slots), others one slot.
    n_both = min(person_counts["meeting time"], person_counts["meeting room"]) // 2
    slot_sets: list[tuple[str, ...]] = [("meeting time", "meeting room")] * n_both
    for slot in PERSON_SLOTS:
        left = person_counts[slot] - (n_both if slot != "day rate" else 0)
        slot_sets += [(slot,)] * left
    rng.shuffle(slot_sets)

    # Namesake pairs: two people sharing a given name and at least one slot, until the
    # share of person chains with a same-slot namesake reaches the seed's level.
    target = round(n_person * AMBIGUOUS_CHAIN_SHARE)
    pair_of: dict[int, int] = {}
    ambiguous = 0
    order = list(range(len(slot_sets)))
    rng.shuffle(order)
    for i_pos, i in enumerate(order):
        if ambiguous >= target:
            break
        if i in pair_of:
            continue
        for j in order[i_pos + 1 :]:
            common = set(slot_sets[i]) & set(slot_sets[j])
            if j not in pair_of and common:
                pair_of[i], pair_of[j] = j, i
                ambiguous += 2 * len(common)
                break
    n_extra = max(4, round(len(slot_sets) * 0.15))  # colleagues without chains of their own
    n_given = len(slot_sets) + n_extra - len(pair_of) // 2
    given_pool = _EN_GIVEN if lang == "en" else _KO_GIVEN
    if n_given > len(given_pool):
        raise ValueError(
            f"n_chains={n_chains} needs {n_given} distinct given names; "
            f"the {lang} pool has {len(given_pool)}"
        )
    givens = rng.sample(given_pool, n_given)
    first_of: dict[int, str] = {}
    it = iter(givens)
    for i in range(len(slot_sets)):
        if i in pair_of and pair_of[i] in first_of:
            first_of[i] = first_of[pair_of[i]]
        else:
            first_of[i] = next(it)
    used: set[str] = set()
    people = [_person(rng, lang, first_of[i], used) for i in range(len(slot_sets))]
    extras = [_person(rng, lang, next(it), used) for _ in range(n_extra)]
    everyone = people + extras
    for p in people:
        p.noun = rng.choice(_NOUNS[lang])

    specs: list[_ChainSpec] = []
    for p, slots in zip(people, slot_sets, strict=True):
        for slot in slots:
            specs.append(_ChainSpec(p, slot, 0, p.name, False))
    # Third-party chains: discussed with a colleague, who later asks about them.
    person_specs = list(specs)
    for spec in rng.sample(person_specs, round(third_party_share * len(person_specs))):
        pool = [q for q in everyone if q.first != spec.entity.first]
        spec.partner = rng.choice(pool).name
        spec.third_party = True

    # Projects: each takes one chain of each project slot while any are left.
    counts = dict(project_counts)
    n_projects = max(counts.values(), default=0)
    project_pool = _EN_PROJECTS if lang == "en" else _KO_PROJECTS
    if n_projects > len(project_pool):
        raise ValueError(
            f"n_chains={n_chains} needs {n_projects} projects; the pool has {len(project_pool)}"
        )
    projects = [
        _Entity(name, "project", name, f"Project {name}" if lang == "en" else f"{name} 프로젝트")
        for name in rng.sample(project_pool, n_projects)
    ]
    for proj in projects:
        owner = rng.choice(everyone).name
        for slot in PROJECT_SLOTS:
            if counts[slot] > 0:
                counts[slot] -= 1
                specs.append(_ChainSpec(proj, slot, 0, owner, False))

    rng.shuffle(specs)
    n_revised = round(revised_share * len(specs)) if max_revisions > 0 else 0
    for spec in rng.sample(specs, n_revised):
        spec.n_rev = rng.randint(1, max_revisions)
    return everyone, projects, specs


def _person(rng: random.Random, lang: str, first: str, used: set[str]) -> _Entity:
    surnames = _EN_SURNAMES if lang == "en" else _KO_SURNAMES
    for _ in range(1000):
        last = rng.choice(surnames)
        name = f"{first} {last}" if lang == "en" else f"{last}{first}"
        if name not in used:
            used.add(name)
            variant = f"{last} {first}"  # "Kim Minjun" / "김 민준": another key
            return _Entity(name, "person", first, variant)
    raise ValueError(f"no free surname for {first!r}")


def _draw_values(rng: random.Random, lang: str, specs: Sequence[_ChainSpec]) -> None:
    pools: dict[str, list[str]] = {}
    for spec in specs:
        # Deadlines and launch dates draw from one pool: a date is unique per instance.
        kind = "date" if spec.slot in ("deadline", "launch date") else spec.slot
        pool = pools.get(kind)
        if pool is None:
            pool = pools[kind] = _value_pool(lang, spec.slot)
            rng.shuffle(pool)
        n = spec.n_rev + 1
        if len(pool) < n:
            raise ValueError(f"the {spec.slot!r} value pool ran out; use fewer chains")
        spec.values = [pool.pop() for _ in range(n)]
        asserts, updates = _CHAIN[lang][spec.slot]
        if spec.templates:  # fixed by the caller (the hard slice: one template per pair)
            continue
        spec.templates = [rng.randrange(len(asserts))] + [
            rng.randrange(len(updates)) for _ in range(spec.n_rev)
        ]


def _main_timeline(
    rng: random.Random, specs: Sequence[_ChainSpec], n_fillers: int, days: int
) -> list[int]:
    """Arrival seconds since START: chains' messages in order, fillers anywhere."""
    n_msgs = sum(s.n_rev + 1 for s in specs)
    total = n_msgs + n_fillers
    if total > days * 86400:
        raise ValueError("more messages than seconds in the timeline")
    seconds = rng.sample(range(days * 86400), total)
    i = 0
    for spec in specs:
        k = spec.n_rev + 1
        spec.seconds = sorted(seconds[i : i + k])
        spec.stated = list(spec.seconds)
        i += k
    return seconds[i:]


def _shuffle_order(
    rng: random.Random, specs: Sequence[_ChainSpec], share: float, n_chains: int
) -> None:
    """Let ``share`` of the chains arrive out of stated order (revised chains only).

    Every chain draws its rank and permutation whatever the share, so the shuffled set
    grows with the share and the rest of the instance is unchanged. Message i (true
    order) arrives in slot π(i); its stated time is its in-order slot or the earliest
    arrival among messages i..n, whichever is earlier, minus (n − i) minutes: strictly
    increasing, and never after its own arrival (nothing states a change before it is
    announced).
    """
    drawn: list[tuple[float, int, list[int]]] = []
    for idx, spec in enumerate(specs):
        n = spec.n_rev + 1
        perm = list(range(n))
        if n > 1:
            while perm == sorted(perm):
                rng.shuffle(perm)
        drawn.append((rng.random(), idx, perm))
    revised = sorted((d for d in drawn if specs[d[1]].n_rev > 0), key=lambda d: d[0])
    for _, idx, perm in revised[: min(round(share * n_chains), len(revised))]:
        spec = specs[idx]
        slots = list(spec.seconds)  # sorted arrival slots
        arrival = [slots[perm[i]] for i in range(len(slots))]
        n = len(slots) - 1
        stated = [min(slots[i], *arrival[i:]) - 60 * (n - i) for i in range(len(slots))]
        spec.seconds, spec.stated, spec.shuffled = arrival, stated, True


# ----------------------------------------------------------------------- hard slice


def _hard_specs(
    rng: random.Random, lang: str, n_pairs: int, days: int
) -> tuple[list[_Entity], list[_Entity], list[_ChainSpec]]:
    """Namesake pairs built to defeat every cue but identity (seed §7): both people's
    meeting-time facts share slot, noun, template and day, so neither ranking nor recency
    can separate them; only B has a room, so A's room is a request with no answer whose
    only candidate value is B's."""
    given_pool = _EN_GIVEN if lang == "en" else _KO_GIVEN
    if n_pairs > len(given_pool):
        raise ValueError(f"hard_pairs={n_pairs} exceeds the {len(given_pool)} given names")
    used: set[str] = set()
    people: list[_Entity] = []
    specs: list[_ChainSpec] = []
    asserts = _CHAIN[lang]["meeting time"][0]
    for first in rng.sample(given_pool, n_pairs):
        a = _person(rng, lang, first, used)
        b = _person(rng, lang, first, used)
        a.noun = b.noun = rng.choice(_NOUNS[lang])
        people += [a, b]
        template = rng.randrange(len(asserts))
        day = rng.randrange(days)
        for ent, slot in ((a, "meeting time"), (b, "meeting time"), (b, "meeting room")):
            spec = _ChainSpec(ent, slot, 0, ent.name, False, hard=True)
            spec.seconds = [day]  # the day; the timeline turns it into a second
            specs.append(spec)
        specs[-3].templates = specs[-2].templates = [template]
    return people, [], specs


def _hard_timeline(
    rng: random.Random, specs: Sequence[_ChainSpec], n_fillers: int, days: int
) -> list[int]:
    """Pair messages on their pair's day (office hours), fillers anywhere, all distinct."""
    taken: set[int] = set()
    for spec in specs:
        day = spec.seconds[0]
        while True:
            sec = day * 86400 + rng.randrange(0, 9 * 3600)  # 09:00–18:00 from START's 09:00
            if sec not in taken:
                break
        taken.add(sec)
        spec.seconds = spec.stated = [sec]
    free = [s for s in rng.sample(range(days * 86400), n_fillers + len(taken)) if s not in taken]
    return free[:n_fillers]


# ------------------------------------------------------------------------ assembly


def _chains(specs: Sequence[_ChainSpec], prefix: str) -> list[Chain]:
    return [
        Chain(
            index=i,
            entity=s.entity.name,
            kind=s.entity.kind,
            slot=s.slot,
            noun=s.entity.noun if s.slot in ("meeting time", "meeting room") else None,
            values=tuple(s.values),
            record_ids=tuple(f"{prefix}-c{i:03d}-{k}" for k in range(len(s.values))),
            partner=s.partner,
            third_party=s.third_party,
            shuffled=s.shuffled,
            hard=s.hard,
        )
        for i, s in enumerate(specs)
    ]


def _namesakes(people: Sequence[_Entity]) -> dict[str, list[str]]:
    """Each person → the other people answering to the same given name."""
    by_first: dict[str, list[str]] = {}
    for p in people:
        by_first.setdefault(p.first, []).append(p.name)
    return {p.name: [q for q in by_first[p.first] if q != p.name] for p in people}


def _facts(
    rng: random.Random,
    specs: Sequence[_ChainSpec],
    chains: Sequence[Chain],
    namesakes: dict[str, list[str]],
    p: float,
    q: float,
    target: FalseMergeTarget,
) -> tuple[dict[str, Fact], dict[str, Fact], dict[str, str]]:
    """Gold facts, the facts handed to the store (with key noise), and the noise labels.

    Three uniforms per message, always drawn, so noise sets are nested in p and q.
    """
    slots_of: dict[str, list[str]] = {}
    for spec in specs:
        slots_of.setdefault(spec.entity.name, []).append(spec.slot)
    gold: dict[str, Fact] = {}
    noisy: dict[str, Fact] = {}
    noise: dict[str, str] = {}
    for spec, chain in zip(specs, chains, strict=True):
        ent = spec.entity
        for k, (rid, value) in enumerate(zip(chain.record_ids, spec.values, strict=True)):
            intent = Intent.UPDATE if k else Intent.ASSERT
            fact = Fact(ent.name, spec.slot, value, intent)
            gold[rid] = fact
            u_miss, u_false, u_pick = rng.random(), rng.random(), rng.random()
            if k and u_miss < p:
                noisy[rid] = Fact(ent.variant, spec.slot, value, intent)
                noise[rid] = "missed"
                continue
            if u_false < q:
                if target == "slot":
                    own = [s for s in slots_of[ent.name] if s != spec.slot]
                    family = PERSON_SLOTS if ent.kind == "person" else PROJECT_SLOTS
                    options = own or [s for s in family if s != spec.slot]
                    wrong = options[int(u_pick * len(options))]
                    noisy[rid] = Fact(ent.name, wrong, value, intent)
                    noise[rid] = "false"
                    continue
                others = namesakes.get(ent.name, [])
                if others:
                    noisy[rid] = Fact(others[int(u_pick * len(others))], spec.slot, value, intent)
                    noise[rid] = "false"
                    continue
            noisy[rid] = fact
    return gold, noisy, noise


def _fillers(
    rng: random.Random, lang: str, people: Sequence[_Entity], n: int
) -> list[tuple[str, str, str]]:
    """(text, partner, speaker) per filler: no value, no slot noun, people named."""
    if n and len(people) < 2:
        raise ValueError("fillers need at least two people; use more chains")
    out = []
    templates = _FILLERS[lang]
    for _ in range(n):
        e, f = rng.sample(list(people), 2)
        template = rng.choice(templates)
        text = _fill(
            template,
            e=e.name,
            f=f.name,
            p=e.name + "님",
            q=f.name + "님",
            t=f"OPS-{rng.randrange(100, 10000)}",
            s=rng.choice(_SERVICES),
        )
        partner = rng.choice(list(people)).name
        out.append((text, partner, rng.choice((USER, partner))))
    return out


def _chain_text(
    lang: str,
    spec: _ChainSpec,
    k: int,
    paraphrase: random.Random | None = None,
    paraphrase_set: str = "dev",
) -> str:
    if paraphrase is not None:
        import importlib

        module = "paraphrases" if paraphrase_set == "dev" else "paraphrases_heldout"
        table = importlib.import_module(f"graphmem_bench.{module}").PARAPHRASES
        asserts, updates = table[lang][spec.slot]
        pool = updates if k else asserts
        template = pool[paraphrase.randrange(len(pool))]
    else:
        asserts, updates = _CHAIN[lang][spec.slot]
        template = (updates if k else asserts)[spec.templates[k]]
    ent = spec.entity
    return _fill(template, e=ent.name, p=ent.name + "님", n=ent.noun or "", v=spec.values[k])


def _iso(dt: datetime) -> str:
    """Record's own time format, so request and record times compare as strings."""
    return to_utc_iso(dt)


def _records(
    lang: str,
    specs: Sequence[_ChainSpec],
    chains: Sequence[Chain],
    fillers: Sequence[tuple[str, str, str]],
    filler_seconds: Sequence[int],
    facts: dict[str, Fact],
    keyed: bool,
    prefix: str,
    paraphrase: random.Random | None = None,
    paraphrase_set: str = "dev",
) -> list[Record]:
    events: list[tuple[int, str, dict[str, Any]]] = []
    for spec, chain in zip(specs, chains, strict=True):
        for k, rid in enumerate(chain.record_ids):
            events.append(
                (
                    spec.seconds[k],
                    rid,
                    {
                        "text": _chain_text(lang, spec, k, paraphrase, paraphrase_set),
                        "speaker": USER,
                        "participants": (spec.partner,),
                        "stated_at": _iso(START + timedelta(seconds=spec.stated[k])),
                        "facts": (facts[rid],) if keyed else None,
                    },
                )
            )
    for i, ((text, partner, speaker), sec) in enumerate(zip(fillers, filler_seconds, strict=True)):
        events.append(
            (
                sec,
                f"{prefix}-f{i:04d}",
                {
                    "text": text,
                    "speaker": speaker,
                    "participants": (partner,),
                    "stated_at": None,
                    "facts": None,
                },
            )
        )
    events.sort(key=lambda e: (e[0], e[1]))
    return [
        Record(id=rid, pos=pos, observed_at=_iso(START + timedelta(seconds=sec)), **kw)
        for pos, (sec, rid, kw) in enumerate(events)
    ]


def _request(
    lang: str,
    spec: _ChainSpec,
    chain: Chain,
    others: Sequence[str],
    now: str,
    rid: str,
    variant: int,
    *,
    answerable: bool = True,
    partner: str | None = None,
    slot: str | None = None,
) -> Request:
    ent = spec.entity
    slot = slot or spec.slot
    return Request(
        id=rid,
        text=request_text(lang, slot, ent.first, ent.noun, variant),
        partner=partner or spec.partner,
        now=now,
        entity=ent.name if answerable else None,
        slot=slot,
        answer=spec.values[-1] if answerable else None,
        stale_values=tuple(spec.values[:-1]) if answerable else (),
        other_values=tuple(others),
        answerable=answerable,
        ambiguous=bool(others),
        third_party=ent.kind == "person" and (partner or spec.partner) != ent.name,
        hard=spec.hard,
        lang=lang,
        mention=ent.first,
        intended=ent.name,
        chain=chain.index if answerable else None,
    )


def _other_values(
    specs: Sequence[_ChainSpec], namesakes: dict[str, list[str]], entity: str, slot: str
) -> list[str]:
    rivals = set(namesakes.get(entity, []))
    return [v for s in specs if s.entity.name in rivals and s.slot == slot for v in s.values]


def _main_requests(
    rng: random.Random,
    lang: str,
    specs: Sequence[_ChainSpec],
    chains: Sequence[Chain],
    namesakes: dict[str, list[str]],
    now: str,
    prefix: str,
    n_requests: int,
) -> list[Request]:
    """40–50 ambiguous requests per 240, every chain asked before any is asked twice."""
    others = [_other_values(specs, namesakes, s.entity.name, s.slot) for s in specs]
    amb = [i for i in range(len(specs)) if others[i]]
    unamb = [i for i in range(len(specs)) if not others[i]]
    lo, hi = AMBIGUOUS_REQUESTS
    n_amb = min(round(rng.randint(lo, hi) * n_requests / 240), 2 * len(amb), n_requests)
    if n_requests - n_amb > 0 and not unamb:
        raise ValueError("no unambiguous chain to ask about")
    picks = _spread(rng, amb, n_amb) + _spread(rng, unamb, n_requests - n_amb)
    rng.shuffle(picks)
    seen: Counter[int] = Counter()
    out = []
    for n, i in enumerate(picks):
        out.append(
            _request(lang, specs[i], chains[i], others[i], now, f"{prefix}-q{n:03d}", seen[i])
        )
        seen[i] += 1
    return out


def _spread(rng: random.Random, items: Sequence[int], n: int) -> list[int]:
    """n picks from items: whole rounds over all of them, then a random partial round."""
    if n <= 0 or not items:
        return []
    rounds, rest = divmod(n, len(items))
    return list(items) * rounds + rng.sample(list(items), rest)


def _hard_requests(
    rng: random.Random,
    lang: str,
    specs: Sequence[_ChainSpec],
    chains: Sequence[Chain],
    namesakes: dict[str, list[str]],
    now: str,
    prefix: str,
) -> list[Request]:
    """Per pair: A's time (to A), B's time (to B), A's room (to A, never stated)."""
    out: list[Request] = []
    for j in range(0, len(specs), 3):
        a_time, b_time, b_room = specs[j], specs[j + 1], specs[j + 2]
        for spec, idx in ((a_time, j), (b_time, j + 1)):
            ov = _other_values(specs, namesakes, spec.entity.name, spec.slot)
            out.append(_request(lang, spec, chains[idx], ov, now, "", 0))
        out.append(
            _request(
                lang,
                a_time,
                chains[j],
                list(b_room.values),
                now,
                "",
                0,
                answerable=False,
                partner=a_time.entity.name,
                slot="meeting room",
            )
        )
    rng.shuffle(out)
    return [replace(r, id=f"{prefix}-q{n:03d}") for n, r in enumerate(out)]


def _check_unique_values(
    records: Sequence[Record], requests: Sequence[Request], chains: Sequence[Chain]
) -> None:
    """Every value occurs (at token boundaries) only in its own chain's messages.

    This is what makes block exposure measurable by string match; a violation is a
    generator bug, so it raises.
    """
    owner: dict[str, int] = {}
    for c in chains:
        for v in c.values:
            if v in owner:
                raise AssertionError(f"value {v!r} drawn twice")
            owner[v] = c.index
    alternation = "|".join(re.escape(v) for v in sorted(owner, key=len, reverse=True))
    if not alternation:
        return
    finder = re.compile(
        rf"(?=((?<![0-9A-Za-z])(?<![0-9][,.:])(?:{alternation})"
        r"(?![0-9A-Za-z])(?![,.:][0-9])))"
    )
    own: dict[str, str] = {rid: c.values[k] for c in chains for k, rid in enumerate(c.record_ids)}
    for r in records:
        found = {m.group(1) for m in finder.finditer(r.text)}
        expected = {own[r.id]} if r.id in own else set()
        if found != expected or (expected and not mentions(r.text, own[r.id])):
            raise AssertionError(f"record {r.id} holds values {found}, expected {expected}")
    for q in requests:
        if finder.search(q.text):
            raise AssertionError(f"request {q.id} contains a value: {q.text!r}")
