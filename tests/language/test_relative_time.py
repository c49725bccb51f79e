"""Relative time resolved against the sending day (the blind set is scored by
``graphmem-bench relative-time``; these are the rules and the invariants)."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.language.relative_time import resolve_times


def _days(text: str, sent: str) -> list[tuple[str, str, str]]:
    return [(r.phrase, r.start.isoformat(), r.end.isoformat()) for r in resolve_times(text, sent)]


def test_days_weekdays_and_periods_in_english():
    sent = "2023-05-08T13:56"  # a Monday
    assert _days("I went to the support group yesterday", sent) == [
        ("yesterday", "2023-05-07", "2023-05-07")
    ]
    assert _days("we met last Saturday, and again Friday next week", sent) == [
        ("last Saturday", "2023-05-06", "2023-05-06"),
        ("Friday next week", "2023-05-19", "2023-05-19"),
    ]
    assert _days("The launch slipped to next month", sent) == [
        ("next month", "2023-06-01", "2023-06-30")
    ]
    assert _days("got it 2 wks ago", sent) == [("2 wks ago", "2023-04-24", "2023-04-24")]
    assert _days("last summer was hot", sent) == [("last summer", "2022-06-01", "2022-08-31")]


def test_korean_phrases_keep_their_particles_out():
    sent = "2024-03-13T09:00"  # a Wednesday
    assert _days("지난주 토요일에 이사했어", sent) == [
        ("지난주 토요일", "2024-03-09", "2024-03-09")
    ]
    assert _days("어제 말한 거 담주까지 해줘", sent) == [
        ("어제", "2024-03-12", "2024-03-12"),
        ("담주", "2024-03-18", "2024-03-24"),
    ]
    assert _days("작년 겨울에 스키 탔잖아", sent) == [("작년 겨울", "2023-12-01", "2024-02-29")]
    assert _days("사흘 전에 주문했어요", sent) == [("사흘 전", "2024-03-10", "2024-03-10")]


def test_vague_habitual_and_absolute_phrases_mean_no_day():
    sent = "2024-03-13T09:00"
    for text in (
        "I'll do it later",
        "every Monday we run",
        "a few days ago I saw it",
        "I wasn't born yesterday",
        "올해 초에 시작했어",
        "며칠 전에 봤어",
        "주말마다 등산 가",
        "내일 보낼게",  # 보낼게 holds 낼 (tomorrow) inside a verb
        "그제야 알았어",  # only then
        "5월 3일에 만나",
        "토요일에 만나자",
        # words that hold a time word, and offsets from an event the message tells of
        "Rome wasn't built in a day",
        "I lost ten pounds in 2 weeks",
        "when I last sat down",
        "시간 낼 수 있어?",
        "금주하고 있어",
        "차주가 연락했어",
        "다음 주소 알려줘",
        "이번 주문 취소할게",
        "지난 주인이 키우던 개",
        "입원하고 3일 후에 퇴원했어",
        "그 다음 주에 그는 떠났다",
    ):
        got = _days(text, sent)
        assert all(phrase in ("내일",) for phrase, _, _ in got), (text, got)


def test_month_arithmetic_clamps_to_the_month_end():
    assert _days("a month ago", "2024-03-31T10:00") == [("a month ago", "2024-02-29", "2024-02-29")]
    assert _days("1년 후", "2024-02-29T10:00") == [("1년 후", "2025-02-28", "2025-02-28")]


def test_no_sending_day_no_resolution():
    assert resolve_times("yesterday", None) == []
    assert resolve_times("yesterday", "not a date") == []


_PIECES = st.sampled_from(
    [
        *"abcdefghijklmnopqrstuvwxyz 0123456789.",
        *("last ", "next ", "this ", "week", "ago", " in ", "day", "year", "지난", "주"),
        *("다음", "어제", "내일", "전", "후", "작년", "겨울", "토요일", "이번", "달", "에"),
        *("낼", "초"),
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_PIECES, max_size=20).map("".join),
    st.dates(min_value=date(1, 3, 1), max_value=date(9998, 10, 1)),
)
def test_any_text_resolves_to_ordered_spans_of_itself(text, sent):
    refs = resolve_times(text, sent)
    ends = -1
    for r in refs:
        assert text[r.start_char : r.end_char] == r.phrase
        assert r.start <= r.end and r.end - r.start <= timedelta(days=366)
        assert r.start_char >= ends  # in order, never overlapping
        ends = r.end_char
