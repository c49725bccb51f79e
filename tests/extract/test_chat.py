"""The chat extractor: typed values, intents, owners — and its place in Memory.

Examples here are the developers' own; the frozen held-out corpus is scored by
``graphmem-bench extraction``, not asserted on.
"""

from __future__ import annotations

import itertools
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem import InvalidInputError, MemoryConfig, Record, RelationRegistry
from graphmem.domain.model import Intent, ParseStatus
from graphmem.extract.chat import ChatExtractor, find_values

WEDNESDAY = datetime(2026, 3, 4, 10, 0)


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("standup at 3pm", "time", "15:00"),
        ("at 15:30 sharp", "time", "15:30"),
        ("noon works", "time", "12:00"),
        ("오후 3시 반에", "time", "15:30"),
        ("내일 15시 20분", "time", "15:20"),
        ("세 시에 봐요", "bare_time", "03:00"),
        ("Thu", "date", "2026-03-05"),
        ("tomorrow", "date", "2026-03-05"),
        ("다음 주 화요일", "date", "2026-03-10"),
        ("on the 24th", "date", "2026-03-24"),
        ("5월 3일", "date", "2026-05-03"),
        ("27 March", "date", "2026-03-27"),
        ("room 4B", "room", "4B"),
        ("B회의실", "room", "B회의실"),
        ("12층으로", "room", "12층"),
        ("$1,200", "money", "1200 USD"),
        ("$1.2k", "money", "1200 USD"),
        ("오십만 원", "money", "500000 KRW"),
        ("만 오천 원", "money", "15000 KRW"),
        ("120만원으로", "money", "1200000 KRW"),
        ("2만 5천원", "money", "25000 KRW"),
        ("3천만 원", "money", "30000000 KRW"),
        ("30만 장", "count", "300000"),
        ("£40/hr", "rate", "40 GBP/hour"),
        ("하루 75만 원", "rate", "750000 KRW/day"),
        ("90 minutes", "duration", "90 min"),
        ("2시간 정도", "duration", "120 min"),
        ("an hour and a half", "duration", "90 min"),
        ("that makes 6 of us", "count", "6"),
        ("세 명", "count", "3"),
        ("010-1234-5678", "phone", "01012345678"),
        ("+82 10-4417-2290", "phone", "+821044172290"),
        ("Jo@Example.com", "email", "jo@example.com"),
        ("https://zoom.us/j/88", "url", "https://zoom.us/j/88"),
    ],
)
def test_typed_values_have_one_canonical_form(text, kind, value):
    found = [(v.kind, v.value) for v in find_values(text, WEDNESDAY)]
    assert (kind, value) in found, found


@pytest.mark.parametrize("text", ["Q3 planning", "a 4K monitor", "3시간 회의", "원래 그래요"])
def test_words_that_look_like_values_are_not(text):
    kinds = {v.kind for v in find_values(text, WEDNESDAY)}
    assert not kinds & {"room", "time", "money"}, kinds


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_value_spans_never_overlap_and_lie_in_the_text(text):
    spans = find_values(text, WEDNESDAY)
    for v in spans:
        assert 0 <= v.start < v.end <= len(text)
    for a, b in itertools.pairwise(spans):
        assert a.end <= b.start


def _record(
    text: str,
    speaker: str = "Mina Park",
    others: tuple[str, ...] = ("Joon Lee",),
    at: str = "2026-03-04T10:00:00",
) -> Record:
    return Record(
        text, speaker=speaker, participants=(speaker, *others), observed_at=at, source="chan-1"
    )


def test_an_explicit_owner_and_noun_make_a_fact():
    ex = ChatExtractor()
    got = ex.extract(_record("The Orion deadline is March 20."))
    assert [(f.subject, f.relation, f.value) for f in got.facts] == [
        ("Orion", "deadline", "2026-03-20")
    ]


def test_a_change_lands_on_the_key_the_subject_already_has():
    ex = ChatExtractor()
    first = ex.extract(_record("The Orion deadline is March 20.")).facts[0]
    moved = ex.extract(_record("Orion got pushed to April 2")).facts[0]
    assert (moved.subject, moved.relation) == (first.subject, first.relation)
    assert moved.value == "2026-04-02" and moved.intent is Intent.UPDATE


@pytest.mark.parametrize(
    "text",
    [
        "can we move the Orion deadline to March 22?",
        "how about March 22 for the Orion deadline",
        "Orion 마감 3월 22일로 하면 어때요?",
        "if the Orion deadline were March 22 we'd be fine",
        "we used to have the Orion deadline on March 1",
    ],
)
def test_questions_proposals_and_hypotheticals_state_nothing(text):
    got = ChatExtractor().extract(_record(text))
    assert got.facts == ()


def test_from_x_to_y_checks_x_against_the_value_held():
    ex = ChatExtractor()
    ex.extract(_record("The Orion deadline is March 20."))
    wrong = ex.extract(_record("Orion deadline moved from March 18 to March 25"))
    assert wrong.status is ParseStatus.UNRESOLVED and "not the value held" in wrong.reason
    right = ex.extract(_record("Orion deadline moved from March 20 to March 25"))
    assert [f.value for f in right.facts] == ["2026-03-25"]


def test_first_person_rate_is_the_speakers():
    got = ChatExtractor().extract(_record("my day rate is $900/day now"))
    assert [(f.subject, f.value) for f in got.facts] == [("Mina Park", "900 USD/day")]


def test_korean_titles_and_particles_find_the_person():
    got = ChatExtractor().extract(
        _record("김민준님 일당은 75만 원입니다", speaker="박서연", others=("이지우",))
    )
    assert [(f.subject, f.value) for f in got.facts] == [("김민준", "750000 KRW/day")]


def test_a_cancellation_revokes_what_was_held():
    ex = ChatExtractor()
    ex.extract(_record("Team dinner is Friday at 7pm"))
    got = ex.extract(_record("team dinner is cancelled, sorry all"))
    assert got.facts and {f.intent for f in got.facts} == {Intent.REVOKE}


def test_a_value_with_no_owner_is_kept_raw():
    got = ChatExtractor().extract(_record("ran into them at the gym around 7, fun chat"))
    assert got.facts == ()


def test_declared_relations_name_the_key():
    reg = RelationRegistry()
    reg.declare("parking spot", synonyms=["parking", "주차"], value_type="room")
    got = ChatExtractor(reg).extract(_record("Joon Lee's parking is B12 from today"))
    assert [(f.subject, f.relation, f.value) for f in got.facts] == [
        ("Joon Lee", "parking spot", "B12")
    ]


def test_bad_vocabulary_is_a_typed_error():
    with pytest.raises(InvalidInputError):
        RelationRegistry().declare("parking", value_type="parking-lot")
    with pytest.raises(InvalidInputError):
        MemoryConfig(extractor="clever")
    with pytest.raises(InvalidInputError):
        MemoryConfig(timezone="Mars/Olympus")


@pytest.mark.integration
def test_memory_reads_text_only_records_with_the_chat_extractor(connect, namespace):
    mem = connect(namespace, extractor="chat")
    report = mem.ingest(
        [
            _record("The Orion deadline is March 20.", at="2026-03-02T09:00:00"),
            _record("Orion got pushed to April 2", at="2026-03-03T09:00:00"),
            _record("lol ok", at="2026-03-03T09:01:00"),
        ]
    )
    assert report.stored == 3 and report.facts == 2
    why = mem.why("Orion", "deadline")
    assert why.value == "2026-04-02"
    assert [v["value"] for v in why.replaced] == ["2026-03-20"]


def test_the_extractors_context_is_bounded(monkeypatch):
    from graphmem.extract.chat import extractor as module

    monkeypatch.setattr(module, "MAX_CONVERSATIONS", 3)
    monkeypatch.setattr(module, "MAX_KEYS", 5)
    ex = ChatExtractor()
    for i in range(20):
        ex.extract(
            Record(
                f"The Project{i} deadline is March 20.",
                speaker="A",
                participants=("A", f"B{i}"),
                observed_at="2026-03-02T09:00:00",
                source=f"chan-{i}",
            )
        )
    assert len(ex._conversations) == 3
    assert len(ex._heads) <= 5 and len(ex._subjects) <= 5


def test_a_document_is_not_read_as_chat():
    from graphmem.extract.chat.extractor import MAX_MESSAGE_CHARS

    got = ChatExtractor().extract(_record("The Orion deadline is March 20. " * 200))
    assert len("The Orion deadline is March 20. " * 200) > MAX_MESSAGE_CHARS
    assert got.status is ParseStatus.UNRESOLVED and "kept raw" in got.reason


def test_each_namespace_gets_its_own_chat_extractor():
    shared = ChatExtractor()
    cfg = MemoryConfig(extractor=shared)
    a, b = cfg.build_extractor(RelationRegistry()), cfg.build_extractor(RelationRegistry())
    assert a is not b and a is not shared
