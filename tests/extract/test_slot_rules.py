"""Seed 004's slot rules: a key only when entity, slot noun and a typed value all occur.

Every rule in English and Korean, with the failure modes that must never guess:
unclear slot, pronoun, negation, two values, two entities.
"""

from __future__ import annotations

import pytest

from graphmem.domain.model import Fact, Intent, ParseStatus, Record
from graphmem.extract.base import Extractor
from graphmem.extract.slots import (
    DEFAULT_SLOTS,
    SlotRuleExtractor,
    SlotSpec,
    find_slot_nouns,
    find_values,
)
from graphmem.language import EnglishAnalyzer, KoreanAnalyzer

ENTITIES = ["Alex", "Jordan Lee", "Project Falcon", "김민준", "이민준", "초롱"]
FACTS, UNRESOLVED, NO_FACT = ParseStatus.FACTS, ParseStatus.UNRESOLVED, ParseStatus.NO_FACT
A, U = Intent.ASSERT, Intent.UPDATE


@pytest.fixture(scope="module")
def rules() -> SlotRuleExtractor:
    return SlotRuleExtractor(ENTITIES)


def _one(rules: SlotRuleExtractor, text: str) -> tuple[ParseStatus, tuple[Fact, ...], str]:
    r = rules.extract(Record(text))
    return r.status, r.facts, r.reason


# ---------------------------------------------------------------- facts, per slot


@pytest.mark.parametrize(
    ("text", "subject", "relation", "value", "intent"),
    [
        # meeting time
        ("Alex's meeting is at 3pm.", "Alex", "meeting time", "3pm", A),
        ("The standup with Alex is at 10:45", "Alex", "meeting time", "10:45", A),
        ("Alex rescheduled the sync to 9:30 a.m.", "Alex", "meeting time", "9:30 a.m.", U),
        ("김민준님 회의는 3시야", "김민준", "meeting time", "3시", A),
        ("김민준 회의가 오후 3시 반으로 바뀌었어", "김민준", "meeting time", "오후 3시 반", U),
        ("이민준 스탠드업은 15:30이야", "이민준", "meeting time", "15:30", A),
        # meeting room
        ("The standup with Alex is in 16C", "Alex", "meeting room", "16C", A),
        ("Alex's meeting moved to Room 402.", "Alex", "meeting room", "Room 402", U),
        ("Alex's standup is in room B", "Alex", "meeting room", "room B", A),
        ("이민준 팀장님 회의는 B회의실에서 해", "이민준", "meeting room", "B회의실", A),
        ("김민준님 회의실은 회의실 B야", "김민준", "meeting room", "회의실 B", A),
        ("이제 김민준 회의는 27E 호에서 해", "김민준", "meeting room", "27E 호", U),
        # deadline
        ("Jordan Lee's deadline is May 3.", "Jordan Lee", "deadline", "May 3", A),
        (
            "The deadline for Project Falcon is now 2026-05-03",
            "Project Falcon",
            "deadline",
            "2026-05-03",
            U,
        ),
        ("김민준 마감일은 5월 3일이야", "김민준", "deadline", "5월 3일", A),
        ("Alex의 deadline은 5월 3일이야", "Alex", "deadline", "5월 3일", A),
        # launch date
        (
            "The launch date for Project Falcon is May 3rd, 2026.",
            "Project Falcon",
            "launch date",
            "May 3rd, 2026",
            A,
        ),
        (
            "Project Falcon 출시일이 2026년 5월 3일로 변경됐습니다",
            "Project Falcon",
            "launch date",
            "2026년 5월 3일",
            U,
        ),
        # day rate
        ("Alex's day rate is $1,200.", "Alex", "day rate", "$1,200", A),
        ("Alex's day rate changed to 1,200 dollars", "Alex", "day rate", "1,200 dollars", U),
        ("김민준 일당은 120만원이야", "김민준", "day rate", "120만원", A),
        ("김민준 일당이 71 만 원으로 바뀌었어", "김민준", "day rate", "71 만 원", U),
        # budget cap
        ("Project Falcon's budget cap is 1.2M.", "Project Falcon", "budget cap", "1.2M", A),
        (
            "이민준 예산 한도가 1억 2천만 원으로 변경됐습니다",
            "이민준",
            "budget cap",
            "1억 2천만 원",
            U,
        ),
    ],
)
def test_fact_when_entity_noun_and_typed_value_occur(
    rules: SlotRuleExtractor,
    text: str,
    subject: str,
    relation: str,
    value: str,
    intent: Intent,
) -> None:
    status, facts, reason = _one(rules, text)
    assert status is FACTS, reason
    assert facts == (Fact(subject, relation, value, intent),)


def test_subject_is_the_registered_name_not_the_inflected_surface(
    rules: SlotRuleExtractor,
) -> None:
    for text in (
        "김민준님 회의는 3시야",
        "김민준님에게 회의는 3시라고 전해줘",
        "김민준씨 회의는 3시야",
    ):
        status, facts, _ = _one(rules, text)
        assert status is FACTS and facts[0].subject == "김민준", text


@pytest.mark.parametrize(
    "text",
    [
        "Alex moved the meeting to 4pm",
        "Alex's meeting is now at 4pm",
        "Alex changed the meeting to 4pm",
        "Alex rescheduled the meeting to 4pm",
        "김민준 회의를 4시로 변경했어",
        "김민준 회의를 4시로 옮겼어",
        "이제 김민준 회의는 4시야",
        "김민준 회의가 4시로 바뀌었어",
    ],
)
def test_change_cues_make_an_update(rules: SlotRuleExtractor, text: str) -> None:
    status, facts, reason = _one(rules, text)
    assert status is FACTS, reason
    assert facts[0].intent is Intent.UPDATE


# ------------------------------------------------------------------ never guess


@pytest.mark.parametrize(
    ("text", "reason_part"),
    [
        # pronoun instead of an entity
        ("He moved the meeting to 4pm.", "pronoun"),
        ("She says the deadline is May 3", "pronoun"),
        ("Their budget cap is $5,000", "pronoun"),
        ("Now it's at 4pm.", "pronoun"),  # no slot noun, but it restates somebody's value
        ("그는 회의를 3시로 옮겼어", "pronoun"),
        ("그녀의 마감일은 5월 3일이야", "pronoun"),
        ("걔 회의 3시야", "pronoun"),
        # no registered entity at all
        ("The meeting is at 3pm", "no registered entity"),
        ("김민준호 회의는 3시야", "no registered entity"),  # 호 makes it another name
        # negation
        ("Alex's meeting isn't at 3pm.", "negated"),
        ("Alex's deadline is not May 3", "negated"),
        ("김민준 회의는 3시가 아니야", "negated"),
        ("김민준 회의는 3시에 안 해", "negated"),
        ("김민준 일당은 120만원이 아닙니다", "negated"),
        # two values of the slot's type
        ("Alex's meeting moved from 3pm to 4pm.", "multi-valued"),
        ("Alex's day rate is $500 or $600", "multi-valued"),
        ("김민준 회의는 3시에서 4시로 옮겼어", "multi-valued"),
        ("김민준 마감일은 5월 3일이나 5월 4일이야", "multi-valued"),
        # two entities
        ("Alex and Jordan Lee have the meeting at 3pm", "ambiguous entity"),
        ("김민준과 이민준 회의는 3시야", "ambiguous entity"),
        # unclear slot: two slots could take the value(s)
        ("Project Falcon's launch deadline is May 3.", "ambiguous slot"),
        ("Alex's meeting is at 3pm in room B.", "ambiguous slot"),
        ("Alex's day rate fits the budget at $500", "ambiguous slot"),
        ("김민준 출시 마감은 5월 3일이야", "ambiguous slot"),
        ("김민준 회의는 3시에 B회의실에서 해", "ambiguous slot"),
    ],
)
def test_unresolved_rather_than_a_guess(
    rules: SlotRuleExtractor, text: str, reason_part: str
) -> None:
    status, facts, reason = _one(rules, text)
    assert status is UNRESOLVED, (text, status, reason)
    assert facts == ()
    assert reason_part in reason


@pytest.mark.parametrize(
    "text",
    [
        # no slot noun: the seed's "schedule" sentence, deadline or launch? nobody knows
        "초롱 일정이 9월 1일로 변경됐습니다.",
        "Project Falcon's schedule moved to September 1.",
        "Alex is at 3pm.",
        "Alex and Jordan Lee meet at 3pm.",
        "김민준 회의록은 3시에 올라와",  # 회의 inside the word 회의록 is no slot noun
        # a slot noun but no value of its type
        "Alex's meeting is soon.",
        "Alex's deadline is at 3pm.",  # a time is not a date
        "Alex's day rate is high.",
        "김민준 회의는 곧 시작해",
        "김민준 마감일은 3시간 남았어",  # 3시간 is a duration, and not a date
        # nothing at all
        "Deploy finished for build 42.",
    ],
)
def test_no_fact_without_slot_noun_or_typed_value(rules: SlotRuleExtractor, text: str) -> None:
    status, facts, _ = _one(rules, text)
    assert status is NO_FACT
    assert facts == ()


def test_a_slot_noun_inside_the_value_is_not_the_slot_noun(rules: SlotRuleExtractor) -> None:
    # "회의실" belongs to the value B회의실; without another noun there is no slot noun
    assert _one(rules, "김민준은 B회의실에 있어")[0] is NO_FACT
    assert _one(rules, "Alex is in Room 402")[0] is NO_FACT


def test_other_nouns_without_their_value_type_do_not_block(rules: SlotRuleExtractor) -> None:
    status, facts, _ = _one(rules, "Alex said the deadline is May 3, before the meeting.")
    assert status is FACTS and facts == (Fact("Alex", "deadline", "May 3"),)


def test_the_same_value_twice_is_one_value(rules: SlotRuleExtractor) -> None:
    status, facts, _ = _one(rules, "Alex's meeting is at 3pm, yes 3 pm.")
    assert status is FACTS and facts[0].value == "3pm"


# ------------------------------------------------------------------------ records


def test_record_with_a_pronoun_update_drops_the_stale_fact(rules: SlotRuleExtractor) -> None:
    r = rules.extract(Record("Alex's meeting is at 3pm. Now it's at 4pm."))
    assert r.status is UNRESOLVED and r.facts == ()
    assert [s["status"] for s in r.extra["sentences"]] == ["facts", "unresolved"]


def test_record_keeps_facts_an_unresolved_sentence_cannot_touch(
    rules: SlotRuleExtractor,
) -> None:
    r = rules.extract(Record("Alex's day rate is $1,200. Jordan Lee's meeting isn't at 3pm."))
    assert r.status is UNRESOLVED
    assert r.facts == (Fact("Alex", "day rate", "$1,200"),)
    assert "negated" in r.reason


def test_record_with_two_values_for_one_key_has_no_fact(rules: SlotRuleExtractor) -> None:
    r = rules.extract(Record("Alex's meeting is at 3pm. Alex's meeting is at 4pm."))
    assert r.status is UNRESOLVED and r.facts == ()
    assert "different values" in r.reason


def test_record_with_several_keys(rules: SlotRuleExtractor) -> None:
    r = rules.extract(Record("김민준 회의는 3시야. 이민준 마감일은 5월 3일이야."))
    assert r.status is FACTS
    assert r.facts == (
        Fact("김민준", "meeting time", "3시"),
        Fact("이민준", "deadline", "5월 3일"),
    )


def test_record_repeating_a_fact_gives_it_once(rules: SlotRuleExtractor) -> None:
    r = rules.extract(Record("Alex's meeting is at 3pm. Alex's meeting is at 3pm!"))
    assert r.status is FACTS and r.facts == (Fact("Alex", "meeting time", "3pm"),)


def test_is_an_extractor(rules: SlotRuleExtractor) -> None:
    extractor: Extractor = rules
    assert extractor.name == "slot_rules"
    assert extractor.extract(Record("Deploy finished.")).status is NO_FACT


# -------------------------------------------------------------------- configuration


def test_default_slots_are_seed_004s_six() -> None:
    assert [s.name for s in DEFAULT_SLOTS] == [
        "meeting time",
        "meeting room",
        "deadline",
        "launch date",
        "day rate",
        "budget cap",
    ]
    assert {s.value_type for s in DEFAULT_SLOTS} == {"time", "room", "date", "money"}
    assert all(s.nouns_en and s.nouns_ko for s in DEFAULT_SLOTS)


def test_custom_slots_and_an_explicit_analyzer() -> None:
    hotel = SlotSpec("check-in time", ("check-in",), ("체크인",), "time")
    en = SlotRuleExtractor(["Alex"], [hotel], analyzer=EnglishAnalyzer())
    assert en.extract(Record("Alex's check-in is at 3pm")).facts == (
        Fact("Alex", "check-in time", "3pm"),
    )
    assert en.extract(Record("Alex's meeting is at 3pm")).status is NO_FACT
    ko = SlotRuleExtractor(["김민준"], [hotel], analyzer=KoreanAnalyzer())
    assert ko.extract(Record("김민준님 체크인은 오후 3시예요")).facts == (
        Fact("김민준", "check-in time", "오후 3시"),
    )


def test_slot_spec_validation() -> None:
    with pytest.raises(ValueError, match="value_type"):
        SlotSpec("x", ("x",), (), "colour")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="noun"):
        SlotSpec("x", (), (), "time")
    with pytest.raises(ValueError, match="distinct"):
        SlotRuleExtractor(["Alex"], [DEFAULT_SLOTS[0], DEFAULT_SLOTS[0]])


# ------------------------------------------------------------------- value types


@pytest.mark.parametrize(
    ("text", "vtype", "value"),
    [
        ("at 3pm", "time", "3pm"),
        ("at 3 PM", "time", "3 PM"),
        ("at 15:30", "time", "15:30"),
        ("at 9:30 a.m. sharp", "time", "9:30 a.m."),
        ("at noon", "time", "noon"),
        ("오후 3시에", "time", "오후 3시"),
        ("3시 반에", "time", "3시 반"),
        ("15시 30분에", "time", "15시 30분"),
        ("in room B", "room", "room B"),
        ("in Room 402", "room", "Room 402"),
        ("in conference room 3", "room", "conference room 3"),
        ("is in 16C", "room", "16C"),
        ("B회의실에서", "room", "B회의실"),
        ("회의실 B에서", "room", "회의실 B"),
        ("27E 호에서", "room", "27E 호"),
        ("402호실", "room", "402호실"),
        ("제3회의실", "room", "제3회의실"),
        ("on May 3", "date", "May 3"),
        ("on 3 March 2026", "date", "3 March 2026"),
        ("on 2026-05-03", "date", "2026-05-03"),
        ("on 5/3", "date", "5/3"),
        ("5월 3일에", "date", "5월 3일"),
        ("2026년 5월 3일", "date", "2026년 5월 3일"),
        ("2026.05.03에", "date", "2026.05.03"),
        ("$1,200", "money", "$1,200"),
        ("$1.2M budget", "money", "$1.2M"),
        ("1,200 dollars", "money", "1,200 dollars"),
        ("1.2M", "money", "1.2M"),
        ("120만원", "money", "120만원"),
        ("71 만 원", "money", "71 만 원"),
        ("1,200달러", "money", "1,200달러"),
    ],
)
def test_value_types(text: str, vtype: str, value: str) -> None:
    assert [(v.value_type, v.text) for v in find_values(text)] == [(vtype, value)]


@pytest.mark.parametrize(
    "text",
    ["3시간 동안", "3호선", "24/7", "may 3 people", "12:15:30", "in Q3", "I am here", "5 m"],
)
def test_not_values(text: str) -> None:
    assert find_values(text) == []


def test_slot_nouns_longest_first() -> None:
    assert [n[2] for n in find_slot_nouns("the meeting room and the meeting")] == [
        "meeting room",
        "meeting",
    ]
    assert [n[2] for n in find_slot_nouns("회의실과 회의 시간, 마감일")] == [
        "회의실",
        "회의 시간",
        "마감일",
    ]
