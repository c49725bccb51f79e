"""Relative time in a message, resolved against the day it was sent.

People date what they say relative to when they say it: "I went to the support group
yesterday", "지난주 토요일에 이사했어", "the launch moved to next month". A reader that
sees only the session's date must do the arithmetic; this module does it once, at
ingest, so evidence can show "yesterday = 2023-05-07" beside the turn and a question
that names a date can find it.

The rules (ISO weeks; "last Saturday" is the most recent Saturday before the day;
"지난주 토요일" the Saturday of the previous week; seasons by the Korean convention, a
winter belonging to the year of its December) follow the blind evaluation set's brief
(``tests/fixtures/relative_time``). Vague phrases ("a few days ago", "며칠 전", "올해
초"), habits ("every Monday", "주말마다"), bare weekdays and absolute dates resolve to
nothing: a wrong date is worse than none.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

__all__ = ["WEEKDAYS_EN", "WEEKDAYS_KO", "TimeRef", "resolve_times"]


@dataclass(frozen=True)
class TimeRef:
    """A phrase of the message (``text[start_char:end_char]``) and the days it means."""

    phrase: str
    start: date
    end: date
    start_char: int
    end_char: int

    def when(self) -> str:
        """``2023-05-07``, or a period ``2023-04-24..2023-04-30``."""
        if self.start == self.end:
            return self.start.isoformat()
        return f"{self.start.isoformat()}..{self.end.isoformat()}"

    def stored(self) -> str:
        """How a record keeps it (``EvidenceRecord.times``): ``start:end=when``, the
        phrase's character offsets and no text of it."""
        return f"{self.start_char}:{self.end_char}={self.when()}"

    def label(self) -> str:
        """``yesterday = 2023-05-07``."""
        return f"{self.phrase} = {self.when()}"


# -- calendar arithmetic ------------------------------------------------------------------
def _week_start(d: date, weeks: int = 0) -> date:
    return d - timedelta(days=d.weekday()) + timedelta(weeks=weeks)


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    year, month = d.year + y, m + 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


def _month(d: date, months: int) -> tuple[date, date]:
    first = _add_months(d.replace(day=1), months)
    return first, first.replace(day=calendar.monthrange(first.year, first.month)[1])


def _year(d: date, years: int) -> tuple[date, date]:
    return date(d.year + years, 1, 1), date(d.year + years, 12, 31)


_SEASON_START = {"spring": 3, "summer": 6, "fall": 9, "winter": 12}


def _season(name: str, year: int) -> tuple[date, date]:
    """The season of ``year`` (a winter runs into February of the next year)."""
    first = date(year, _SEASON_START[name], 1)
    return first, _add_months(first, 3) - timedelta(days=1)


def _season_rel(name: str, d: date, which: str) -> tuple[date, date]:
    """``last``: the most recent that ended before ``d``; ``this``: the one holding ``d``,
    else the one starting in ``d``'s year; ``next``: the first starting after ``d``."""
    spans = [_season(name, y) for y in range(d.year - 2, d.year + 3)]
    if which == "last":
        return [s for s in spans if s[1] < d][-1]
    if which == "next":
        return next(s for s in spans if s[0] > d)
    for s in spans:
        if s[0] <= d <= s[1]:
            return s
    return _season(name, d.year)


# -- words ----------------------------------------------------------------------------------
WEEKDAYS_EN = {
    "mon": 0,
    "monday": 0,
    "tue": 1,
    "tues": 1,
    "tuesday": 1,
    "wed": 2,
    "weds": 2,
    "wednesday": 2,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "thursday": 3,
    "fri": 4,
    "friday": 4,
    "sat": 5,
    "saturday": 5,
    "sun": 6,
    "sunday": 6,
}
WEEKDAYS_KO = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}
_NUMBERS_EN = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_NUMBERS_KO = {
    "한": 1,
    "두": 2,
    "세": 3,
    "네": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "열": 10,
}
_DAY_COUNTS_KO = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "열흘": 10, "보름": 15}
_SEASONS_EN = {
    "spring": "spring",
    "summer": "summer",
    "fall": "fall",
    "autumn": "fall",
    "winter": "winter",
}
_SEASONS_KO = {"봄": "spring", "여름": "summer", "가을": "fall", "겨울": "winter"}

_EN_WD = "|".join(sorted(WEEKDAYS_EN, key=len, reverse=True))
_EN_NUM = r"\d{1,3}|" + "|".join(sorted(_NUMBERS_EN, key=len, reverse=True))
_EN_SEASON = "|".join(_SEASONS_EN)
_EN_UNIT = r"day|week|wk|month|mo|year|yr"
# Abbreviated units people type ("2 wks ago", "next yr").
_EN_UNITS = {"wk": "week", "mo": "month", "yr": "year"}


def _ko_wd(name: str) -> str:
    return r"(?P<" + name + r">[월화수목금토일])(?:요일|욜)"


_KO_NUM = r"\d{1,3}|" + "|".join(sorted(_NUMBERS_KO, key=len, reverse=True))
_KO_LAST_WEEK = r"(?:지난\s?주|저번\s?주)"
_KO_NEXT_WEEK = r"(?:다음\s?주|담주|차주)"
_KO_THIS_WEEK = r"(?:이번\s?주|금주)"

# English: a phrase starts and ends at a word boundary (a Korean particle may follow:
# "last week에"). Longer forms come first in each alternation.
_EN = re.compile(
    r"(?<![A-Za-z])(?:"
    r"(?P<before_yesterday>the day before yesterday)"
    r"|(?P<after_tomorrow>the day after tomorrow)"
    r"|(?P<wd_rel>(?P<wd_a>" + _EN_WD + r")\.?\s+(?P<wd_rel_which>last|next|this)\s+w(?:ee)?k)"
    r"|(?P<rel_wd>(?P<rel_wd_which>last|next|this)\s+(?P<wd_b>" + _EN_WD + r"))"
    r"|(?P<two_weeks>the week (?P<two_weeks_which>before last|after next))"
    r"|(?P<two_months>the month (?P<two_months_which>before last|after next))"
    r"|(?P<two_years>the year (?P<two_years_which>before last|after next))"
    r"|(?P<weekend>(?P<weekend_which>last|next|nxt|this)\s+(?:weekend|wknd|wkend))"
    r"|(?P<unit>(?P<unit_which>last|next|nxt|this)\s+(?P<unit_name>w(?:ee)?k|month|mo|year|yr))"
    r"|(?P<season>(?P<season_which>last|next|this)\s+(?P<season_name>" + _EN_SEASON + r"))"
    r"|(?P<ago>(?P<ago_n>" + _EN_NUM + r")\s*(?P<ago_unit>" + _EN_UNIT + r")s?\s+ago)"
    r"|(?P<ahead>in\s+(?P<ahead_n>" + _EN_NUM + r")\s*(?P<ahead_unit>" + _EN_UNIT + r")s?)"
    r"|(?P<from_now>(?P<fn_n>" + _EN_NUM + r")\s*(?P<fn_unit>" + _EN_UNIT + r")s?\s+"
    r"from\s+(?:now|today))"
    r"|(?P<today>today|tonight|this morning|this afternoon|this evening|2day)"
    r"|(?P<yesterday>yesterday|yesturday|yesterdy|yday|last night)"
    r"|(?P<tomorrow>tomorrow|tommorow|tomorow|tommorrow|tmrw|tmr|2moro|2morrow)"
    r")(?![A-Za-z])",
    re.IGNORECASE,
)

# Korean: a phrase starts a word (no Hangul before it); particles may follow.
_KO = re.compile(
    r"(?<![가-힣])(?:"
    r"(?P<k_wd_last_week>" + _KO_LAST_WEEK + r"\s?" + _ko_wd("kwd1") + r")"
    r"|(?P<k_wd_next_week>" + _KO_NEXT_WEEK + r"\s?" + _ko_wd("kwd2") + r")"
    r"|(?P<k_wd_this_week>(?:" + _KO_THIS_WEEK + r"|이번)\s?" + _ko_wd("kwd3") + r")"
    r"|(?P<k_wd_last>(?:지난|저번)\s" + _ko_wd("kwd4") + r")"
    r"|(?P<k_weekend_last>(?:지난\s?주말|저번\s?주말|" + _KO_LAST_WEEK + r"\s주말))"
    r"|(?P<k_weekend_next>(?:다음\s?주말|" + _KO_NEXT_WEEK + r"\s?주말))"
    r"|(?P<k_weekend_this>이번\s?주말)"
    r"|(?P<k_week_m2>지지난\s?주)"
    r"|(?P<k_week_p2>다다음\s?주)"
    r"|(?P<k_week_last>" + _KO_LAST_WEEK + r")"
    r"|(?P<k_week_next>" + _KO_NEXT_WEEK + r")"
    r"|(?P<k_week_this>" + _KO_THIS_WEEK + r")"
    r"|(?P<k_month_p2>다다음\s?달)"
    r"|(?P<k_month_last>(?:지난\s?달|저번\s?달))"
    r"|(?P<k_month_next>(?:다음\s?달|담달|익월))"
    r"|(?P<k_month_this>이번\s?달)"
    r"|(?P<k_season>(?P<k_season_which>재작년|작년|내년|올해|올|이번|지난|저번)\s?"
    r"(?P<k_season_name>봄|여름|가을|겨울))"
    r"|(?P<k_year_m2>재작년)"
    r"|(?P<k_year_p2>내후년)"
    r"|(?P<k_year_last>작년|지난해)"
    r"|(?P<k_year_next>내년)"
    r"|(?P<k_year_this>올해|금년)"
    r"|(?P<k_ago>(?:(?P<k_n>"
    + _KO_NUM
    + r")\s?(?P<k_unit>일|주|달|개월|년)|(?P<k_count>"
    + "|".join(_DAY_COUNTS_KO)
    + r")|(?P<k_week1>일주일))\s?(?P<k_dir>전|뒤|후))"
    r"|(?P<k_before_yesterday3>그끄저께|그끄제)"
    r"|(?P<k_before_yesterday>그저께|그제)"
    r"|(?P<k_yesterday>어젯밤|어저께|어제|어재)"
    r"|(?P<k_today>오늘|금일)"
    r"|(?P<k_tomorrow>내일|낼)"
    r"|(?P<k_after_tomorrow>모레)"
    r"|(?P<k_after_tomorrow3>글피)"
    r")"
)

# What follows a Korean phrase and makes it something else: 그제야 ("only then"),
# 어제오늘 (an idiom), 올해 초/말 (vague), 낼 inside a verb is excluded by requiring
# the particle-or-space boundary below.
_KO_NOT_AFTER = re.compile(r"^(?:야|서야|오늘|모레)")
# After a period, its beginning or end is vague ("올해 초", "이번 달 말"); "중" (during)
# keeps the period.
_KO_VAGUE_PART = re.compile(
    r"^\s?(?:초|말|초반|중반|후반)(?![가-힣])|^\s?(?:초|말)(?:에|쯤|까지|부터|엔)"
)
_KO_PERIODS = ("k_week", "k_month", "k_year")
# Syllables that may follow a time word as a particle, an ending or a part of the day
# ("낼은", "모레까지", "다음 주면", "토요일날", "어제저녁"); any other Hangul makes it part
# of another word ("다음 주소", "이번 주문", "지난 주인", "다음 달리기", "3일 전화").
_KO_PARTICLE_START = set(
    "은는이가을를에엔도만부까랑하요의서쯤"  # particles
    "면라였야잖고께과와로으"  # endings, conjunctions
    "날저아오밤낮새처보"  # 토요일날, 어제저녁, 내일아침, 오늘밤, 새벽, 처음, 보다
)
# 낼 is also the verb 내다 ("시간 낼 수 있어", "내가 낼게"); 금주 also means not drinking
# ("금주하고 있어"); 차주 also a car's owner ("차주가 연락했어").
_KO_NOT_WORD = {
    "낼": re.compile(r"^\s?(?:수|거|것|게|께|줄|때|지|테|려|까|래|만큼|돈)"),
    "금주": re.compile(r"^(?:하|해|했|한|할|중이)"),
    "차주": re.compile(r"^(?:가|님|분|께|한테|에게)"),
}
# An offset counted from an event the message tells of, not from its sending day:
# "입원하고 3일 후에", "결혼하기 1년 전에", "그 사건이 있고 사흘 후에", "그 다음 주에".
_KO_EVENT_BEFORE = re.compile(r"(?:[가-힣](?:고|서|기|면)|(?:^|\s)그)\s+$")
_EN_NOT_BEFORE = re.compile(r"(?:born|every|each|the)\s+$", re.IGNORECASE)
# "in 2 weeks" after a past action is a duration ("I lost ten pounds in 2 weeks",
# "Rome wasn't built in a day"), not a day ahead.
_EN_PAST = re.compile(
    r"\b(?:was|were|wasn't|weren't|did|didn't|had|been|built|lost|made|got|went|ran|took|"
    r"finished|\w+ed)\b",
    re.IGNORECASE,
)
_EN_FUTURE = re.compile(r"\b(?:will|won't|'ll|going to|gonna|shall)\b|'ll\b", re.IGNORECASE)
# Three-letter weekdays that are also words ("when I last sat down", "This sun is brutal")
# count only when capitalised.
_EN_WORDLIKE_DAYS = {"sat", "sun", "wed"}


def _count(word: str, table: dict[str, int]) -> int | None:
    if word.isdigit():
        n = int(word)
        return n if 0 < n <= 500 else None
    return table.get(word.casefold())


def _offset(d: date, n: int, unit: str) -> date:
    if unit in ("day", "일"):
        return d + timedelta(days=n)
    if unit in ("week", "주"):
        return d + timedelta(weeks=n)
    if unit in ("month", "달", "개월"):
        return _add_months(d, n)
    return _add_months(d, 12 * n)


def _span_en(m: re.Match[str], d: date) -> tuple[date, date] | None:
    g = m.lastgroup
    word = lambda name: (m.group(name) or "").casefold()  # noqa: E731
    if g == "today":
        return d, d
    if g == "yesterday":
        return d - timedelta(days=1), d - timedelta(days=1)
    if g == "tomorrow":
        return d + timedelta(days=1), d + timedelta(days=1)
    if g == "before_yesterday":
        return d - timedelta(days=2), d - timedelta(days=2)
    if g == "after_tomorrow":
        return d + timedelta(days=2), d + timedelta(days=2)
    if g == "wd_rel":
        shift = {"last": -1, "next": 1, "this": 0}[word("wd_rel_which")]
        day = _week_start(d, shift) + timedelta(days=WEEKDAYS_EN[word("wd_a")])
        return day, day
    if g == "rel_wd":
        wd = WEEKDAYS_EN[word("wd_b")]
        which = word("rel_wd_which")
        if which == "last":
            day = d - timedelta(days=(d.weekday() - wd - 1) % 7 + 1)
        else:
            day = _week_start(d, 1 if which == "next" else 0) + timedelta(days=wd)
        return day, day
    if g in ("two_weeks", "two_months", "two_years"):
        step = -2 if word(f"{g}_which").startswith("before") else 2
        if g == "two_weeks":
            first = _week_start(d, step)
            return first, first + timedelta(days=6)
        return _month(d, step) if g == "two_months" else _year(d, step)
    if g == "weekend":
        shift = {"last": -1, "next": 1, "this": 0}[word("weekend_which")]
        sat = _week_start(d, shift) + timedelta(days=5)
        return sat, sat + timedelta(days=1)
    if g == "unit":
        shift = {"last": -1, "next": 1, "nxt": 1, "this": 0}[word("unit_which")]
        unit = _EN_UNITS.get(word("unit_name"), word("unit_name"))
        if unit.startswith("w"):
            first = _week_start(d, shift)
            return first, first + timedelta(days=6)
        return _month(d, shift) if unit == "month" else _year(d, shift)
    if g == "season":
        return _season_rel(_SEASONS_EN[word("season_name")], d, word("season_which"))
    for name, n_group, unit_group, sign in (
        ("ago", "ago_n", "ago_unit", -1),
        ("ahead", "ahead_n", "ahead_unit", 1),
        ("from_now", "fn_n", "fn_unit", 1),
    ):
        if g == name:
            n = _count(word(n_group), _NUMBERS_EN)
            if n is None:
                return None
            day = _offset(d, sign * n, _EN_UNITS.get(word(unit_group), word(unit_group)))
            return day, day
    return None


def _span_ko(m: re.Match[str], d: date) -> tuple[date, date] | None:
    g = m.lastgroup or ""
    one = {
        "k_today": 0,
        "k_yesterday": -1,
        "k_tomorrow": 1,
        "k_before_yesterday": -2,
        "k_after_tomorrow": 2,
        "k_before_yesterday3": -3,
        "k_after_tomorrow3": 3,
    }
    if g in one:
        day = d + timedelta(days=one[g])
        return day, day
    if g.startswith("k_wd_"):
        wd = WEEKDAYS_KO[next(m.group(f"kwd{i}") for i in range(1, 5) if m.group(f"kwd{i}"))]
        if g == "k_wd_last":
            day = d - timedelta(days=(d.weekday() - wd - 1) % 7 + 1)
        else:
            shift = {"k_wd_last_week": -1, "k_wd_next_week": 1, "k_wd_this_week": 0}[g]
            day = _week_start(d, shift) + timedelta(days=wd)
        return day, day
    if g.startswith("k_weekend_"):
        shift = {"k_weekend_last": -1, "k_weekend_next": 1, "k_weekend_this": 0}[g]
        sat = _week_start(d, shift) + timedelta(days=5)
        return sat, sat + timedelta(days=1)
    weeks = {"k_week_m2": -2, "k_week_p2": 2, "k_week_last": -1, "k_week_next": 1}
    if g in weeks or g == "k_week_this":
        first = _week_start(d, weeks.get(g, 0))
        return first, first + timedelta(days=6)
    months = {"k_month_p2": 2, "k_month_last": -1, "k_month_next": 1, "k_month_this": 0}
    if g in months:
        return _month(d, months[g])
    years = {"k_year_m2": -2, "k_year_p2": 2, "k_year_last": -1, "k_year_next": 1}
    if g in years or g == "k_year_this":
        return _year(d, years.get(g, 0))
    if g == "k_season":
        name = _SEASONS_KO[m.group("k_season_name")]
        which = m.group("k_season_which")
        by_year = {"재작년": -2, "작년": -1, "내년": 1}
        if which in by_year:
            return _season(name, d.year + by_year[which])
        return _season_rel(name, d, "last" if which in ("지난", "저번") else "this")
    if g == "k_ago":
        sign = -1 if m.group("k_dir") == "전" else 1
        if m.group("k_week1"):
            n, unit = 7, "일"
        elif m.group("k_count"):
            n, unit = _DAY_COUNTS_KO[m.group("k_count")], "일"
        else:
            counted = _count(m.group("k_n"), _NUMBERS_KO)
            if counted is None:
                return None
            n, unit = counted, m.group("k_unit")
            if unit == "일" and not m.group("k_n").isdigit():
                return None  # "한 일 전" is not Korean; 일 counts only after digits
        day = _offset(d, sign * n, unit)
        return day, day
    return None


def _en_rejected(text: str, m: re.Match[str]) -> bool:
    if _EN_NOT_BEFORE.search(text[: m.start()]):
        return True
    day = m.group("wd_a") or m.group("wd_b")
    if day and day.casefold() in _EN_WORDLIKE_DAYS and not day[0].isupper():
        return True
    if m.lastgroup == "ahead":
        if (m.group("ahead_n") or "").casefold() in ("a", "an", "one") and (
            m.group("ahead_unit") or ""
        ).casefold() == "day":
            return True  # "in a day": a duration; people say "tomorrow"
        clause = re.split(r"[.!?;\n]", text[: m.start()])[-1]
        if _EN_PAST.search(clause) and not _EN_FUTURE.search(clause):
            return True
    return False


def _ko_rejected(text: str, m: re.Match[str]) -> bool:
    after = text[m.end() :]
    if _KO_NOT_AFTER.match(after):
        return True
    word = _KO_NOT_WORD.get(m.group(0))
    if word is not None and word.match(after):
        return True
    if m.lastgroup in ("k_ago", "k_week_next", "k_month_next") and _KO_EVENT_BEFORE.search(
        text[: m.start()]
    ):
        return True
    if (m.lastgroup or "").startswith(_KO_PERIODS) and _KO_VAGUE_PART.match(after):
        return True
    if after and "가" <= after[0] <= "힣":
        return after[0] not in _KO_PARTICLE_START
    return False


def resolve_times(text: str, sent_at: str | date | None) -> list[TimeRef]:
    """Every relative time expression of ``text`` resolved against the day ``sent_at``
    (an ISO date or date-time), in order of appearance; empty without a sending date."""
    if sent_at is None or not text:
        return []
    if isinstance(sent_at, date):
        day = sent_at
    else:
        try:
            day = date.fromisoformat(str(sent_at)[:10])
        except ValueError:
            return []
    found: list[TimeRef] = []
    taken: list[tuple[int, int]] = []
    for pattern, span_of, rejected in (
        (_EN, _span_en, lambda m: _en_rejected(text, m)),
        (_KO, _span_ko, lambda m: _ko_rejected(text, m)),
    ):
        for m in pattern.finditer(text):
            if rejected(m) or any(a < m.end() and m.start() < b for a, b in taken):
                continue
            try:
                span = span_of(m, day)
            except (ValueError, OverflowError, StopIteration, IndexError):
                span = None  # a date out of the calendar's range
            if span is None:
                continue
            found.append(TimeRef(m.group(0), span[0], span[1], m.start(), m.end()))
            taken.append((m.start(), m.end()))
    return sorted(found, key=lambda r: r.start_char)
