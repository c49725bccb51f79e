"""Typed value recognizers for chat text, English and Korean, with canonical forms.

Each recognizer finds spans of one kind of value and writes it the one way memory
stores it, so "3pm", "15:00" and "오후 3시" are one value:

- time ``HH:MM`` (24 h); date ``YYYY-MM-DD``, relative dates resolved against the
  message's own time; room / place as printed on a sign (``4B``, ``B회의실``, ``12층``);
- money ``<amount> <ISO currency>``, rate ``<amount> <currency>/<unit>``;
- duration ``<n> min`` or ``<n> day``; count a plain integer;
- phone digits (``+`` kept), email lower-cased, URL as written.

Spacing and case are tolerated ("3 시", "오후3시", "3 PM"); numbers may be written in
Hangul ("세 시", "오십만 원") or English words ("three", "a dozen"). A bare number ("11",
"7:30") is a *bare time*: it only becomes a time where the caller knows a time is meant.
Overlapping candidates resolve to the longest span.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal

from graphmem.language.relative_time import WEEKDAYS_EN, WEEKDAYS_KO
from graphmem.language.text import longest_spans

__all__ = [
    "WEEKDAY_WORDS",
    "ValueKind",
    "ValueSpan",
    "find_values",
    "hangul_number",
    "month_number",
    "resolve_bare_time",
    "states_a_length",
]

ValueKind = Literal[
    "time",
    "bare_time",
    "date",
    "room",
    "money",
    "rate",
    "duration",
    "count",
    "phone",
    "email",
    "url",
    "number",
]

_KIND_ORDER = {
    k: i
    for i, k in enumerate(
        (
            "url",
            "email",
            "phone",
            "rate",
            "money",
            "date",
            "time",
            "room",
            "duration",
            "count",
            "bare_time",
            "number",
        )
    )
}


@dataclass(frozen=True)
class ValueSpan:
    start: int
    end: int
    kind: str
    value: str  # canonical
    text: str  # as written


# ------------------------------------------------------------------------ numbers
_EN_NUMBERS = {
    "zero": 0,
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
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "a dozen": 12,
    "dozen": 12,
    "a couple": 2,
    "couple": 2,
    "half a dozen": 6,
}
_EN_NUM_WORD = "|".join(sorted(map(re.escape, _EN_NUMBERS), key=len, reverse=True))

# Native Korean numerals (counting: 세 명, 두 시) and Sino-Korean digits (오십만 원).
_KO_NATIVE = {
    "한": 1,
    "하나": 1,
    "두": 2,
    "둘": 2,
    "세": 3,
    "셋": 3,
    "네": 4,
    "넷": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "열": 10,
    "열한": 11,
    "열하나": 11,
    "열두": 12,
    "열둘": 12,
    "스무": 20,
    "스물": 20,
}
_KO_NATIVE_WORD = "|".join(sorted(map(re.escape, _KO_NATIVE), key=len, reverse=True))
_SINO_DIGIT = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_SINO_SMALL = {"십": 10, "백": 100, "천": 1000}
_SINO_BIG = {"만": 10_000, "억": 100_000_000}
_SINO = r"[일이삼사오육칠팔구십백천만억]+"


def hangul_number(text: str) -> int | None:
    """'오십' → 50, '백이십만' → 1,200,000, '만 오천' → 15,000; None if not a number."""
    s = text.replace(" ", "")
    if not s or not re.fullmatch(_SINO, s):
        return None
    total = section = digit = 0
    for ch in s:
        if ch in _SINO_DIGIT:
            digit = _SINO_DIGIT[ch]
        elif ch in _SINO_SMALL:
            section += (digit or 1) * _SINO_SMALL[ch]
            digit = 0
        else:  # 만, 억
            total += (section + digit or 1) * _SINO_BIG[ch]
            section = digit = 0
    return total + section + digit


def _num(text: str) -> float | None:
    t = text.strip().replace(",", "").replace(" ", "")
    try:
        return float(t)
    except ValueError:
        pass
    low = text.strip().casefold()
    if low in _EN_NUMBERS:
        return float(_EN_NUMBERS[low])
    if text.strip() in _KO_NATIVE:
        return float(_KO_NATIVE[text.strip()])
    n = hangul_number(text)
    return float(n) if n is not None else None


def _fmt(x: float) -> str:
    return str(int(x)) if abs(x - round(x)) < 1e-9 else f"{x:.2f}".rstrip("0").rstrip(".")


# -------------------------------------------------------------------------- times
_AMPM = r"(?P<ampm>[ap]\.?\s?m\.?|[ap](?![a-z]))"
_H12 = r"(?:1[0-2]|0?[1-9])"
_TIME_EN = [
    re.compile(rf"(?<![\d:.$£€₩])(?P<h>{_H12})(?::(?P<m>[0-5]\d))?\s?{_AMPM}(?![a-z])", re.I),
    re.compile(r"(?<![\d:.$£€₩])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?!\d|:\d)(?!\s?%)"),
    re.compile(r"(?<![\d:.])(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)\s?(?:h|hrs|hours)\b", re.I),
    re.compile(rf"(?<![\w])(?P<h>{_H12})\s?o['’]?clock", re.I),
    re.compile(r"\b(?P<word>noon|midday|midnight)\b", re.I),
    re.compile(
        rf"\b(?P<rel>half past|quarter past|quarter to|half)\s+(?P<h>{_H12}|"
        rf"{_EN_NUM_WORD})\b(?:\s?{_AMPM})?",
        re.I,
    ),
]
_KO_DAYPART = r"(?P<part>오전|오후|아침|저녁|밤|낮|새벽|점심)"
# An hour: digits anywhere ("15시", "내일15시"), a native numeral only as its own word ("세 시").
_KO_HOUR = rf"(?:(?<![\d.])(?P<h>[01]?\d|2[0-4])|(?<![가-힣])(?P<hw>{_KO_NATIVE_WORD}))"
_KO_NOT_TIME = r"(?!간|즌|작|험|리|장|청|설|스|계|절|점|선|대|민|도|내|외|청)"
_TIME_KO = re.compile(
    rf"(?:{_KO_DAYPART}\s*)?{_KO_HOUR}\s*시{_KO_NOT_TIME}"
    r"(?:\s*(?:(?P<m>[0-5]?\d)\s*분|(?P<half>반)(?!드시|대|년|찬|값)))?"
)


def _hour_24(h: int, ampm: str | None, part: str | None) -> int:
    a = (ampm or "").lower().replace(".", "").replace(" ", "")
    if a.startswith("p") and h < 12:
        return h + 12
    if a.startswith("a") and h == 12:
        return 0
    if part in ("오후", "저녁", "밤") and h < 12:
        return h + 12
    if part == "낮" and h < 6:
        return h + 12
    if part == "점심" and h < 6:
        return h + 12
    if part in ("오전", "새벽", "아침") and h == 12:
        return 0
    return h


def _times(text: str) -> list[ValueSpan]:
    out: list[ValueSpan] = []
    for i, pat in enumerate(_TIME_EN):
        for m in pat.finditer(text):
            g = m.groupdict()
            if g.get("word"):
                h, mi = (0, 0) if g["word"].lower() == "midnight" else (12, 0)
                out.append(ValueSpan(m.start(), m.end(), "time", f"{h:02d}:{mi:02d}", m.group(0)))
                continue
            raw_h = g["h"]
            hv = _num(raw_h)
            if hv is None:
                continue
            h = int(hv)
            mi = int(g["m"]) if g.get("m") else 0
            if g.get("rel"):
                rel = g["rel"].lower()
                if rel in ("half past", "half"):
                    mi = 30
                elif rel == "quarter past":
                    mi = 15
                else:  # quarter to
                    h, mi = (h - 1) % 12 or 12, 45
            ampm = g.get("ampm")
            kind = "time"
            if i == 1 and not ampm and h <= 12:
                kind = "bare_time" if h >= 1 else "time"  # "7:30": am or pm unknown
                if h == 0 or (raw_h.startswith("0") and len(raw_h) == 2):
                    kind = "time"  # "07:30", "00:15" are written as 24-hour times
            if i == 5 and not ampm:
                kind = "bare_time"
            if i == 3:
                kind = "bare_time"
            h24 = _hour_24(h, ampm, None)
            out.append(ValueSpan(m.start(), m.end(), kind, f"{h24:02d}:{mi:02d}", m.group(0)))
    for m in _TIME_KO.finditer(text):
        g = m.groupdict()
        hv = _num(g["h"] or g["hw"])
        if hv is None or hv > 24:
            continue
        h = int(hv) % 24
        mi = 30 if g.get("half") else int(g["m"]) if g.get("m") else 0
        part = g.get("part")
        kind = "time" if part or h > 12 or h == 0 else "bare_time"
        h24 = _hour_24(h, None, part)
        out.append(ValueSpan(m.start(), m.end(), kind, f"{h24:02d}:{mi:02d}", m.group(0).strip()))
    return out


def resolve_bare_time(value: str, near: str | None = None, text: str = "") -> str:
    """An hour without am/pm ("7", "7:30"): the reading nearest ``near`` (the value it
    replaces), else daytime — 7 to 11 as morning, 1 to 6 as afternoon."""
    h, m = map(int, value.split(":"))
    if h > 12:
        return value
    cands = [h % 12, h % 12 + 12]
    if near:
        nh, nm = map(int, near.split(":"))
        ref = nh * 60 + nm
        best = min(cands, key=lambda c: (abs(c * 60 + m - ref), c))
        return f"{best:02d}:{m:02d}"
    if re.search(r"\b(tonight|evening|dinner|pm)\b|저녁|밤|오후", text, re.I):
        return f"{cands[1]:02d}:{m:02d}"
    hour = cands[1] if 1 <= h <= 6 else h
    return f"{hour % 24:02d}:{m:02d}"


# -------------------------------------------------------------------------- dates
_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH_RE = (
    r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
    r"aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_MONTH_WORD = re.compile(_MONTH_RE, re.I)


def month_number(word: str) -> int | None:
    """The month a word names ("sept", "March", "dec."), 1-12, or None."""
    m = _MONTH_WORD.fullmatch(word)
    if m is None:
        return None
    mon = m.group("mon").casefold()
    return _MONTHS[mon[:4] if mon.startswith("sept") else mon[:3]]


# Days of the week as people write them ("Tue", "Thurs", "weds"), as a regex alternation.
WEEKDAY_WORDS = (
    r"mon(?:day)?|tue(?:s(?:day)?)?|wed(?:s|nesday)?|thu(?:r(?:s(?:day)?)?)?"
    r"|fri(?:day)?|sat(?:urday)?|sun(?:day)?"
)
_WEEKDAY_RE = rf"(?P<wd>{WEEKDAY_WORDS})"
_DAY = r"(?P<d>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"

_DATE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "iso",
        re.compile(
            r"(?<![\d-])(?P<y>20\d\d)[-./](?P<mo>0?[1-9]|1[0-2])[-./]"
            r"(?P<d>3[01]|[12]\d|0?[1-9])(?![\d])"
        ),
    ),
    (
        "md_name",
        re.compile(rf"(?<![a-z]){_MONTH_RE}\s+{_DAY}(?:,?\s+(?P<y>20\d\d))?(?![\d:])", re.I),
    ),
    (
        "dm_name",
        re.compile(
            rf"(?<![\d.]){_DAY}\s+(?:of\s+)?{_MONTH_RE}(?![a-z])"
            r"(?:,?\s+(?P<y>20\d\d))?",
            re.I,
        ),
    ),
    (
        "slash",
        re.compile(
            r"(?<![\d/.:$£€₩])(?P<mo>0?[1-9]|1[0-2])/(?P<d>3[01]|[12]\d|0?[1-9])"
            r"(?:/(?P<y>\d{2,4}))?(?![\d/])"
        ),
    ),
    (
        "ko_md",
        re.compile(
            r"(?:(?P<y>20\d\d)\s*년\s*)?(?<!\d)(?P<mo>0?[1-9]|1[0-2])\s*월\s*"
            r"(?P<d>3[01]|[12]\d|0?[1-9])\s*일(?!\s*(?:동안|간|정도|째))"
        ),
    ),
    (
        "ko_d",
        re.compile(
            r"(?<![\d월])(?<!월\s)(?P<d>3[01]|[12]\d|0?[1-9])\s*일"
            r"(?=\s*(?:에|까지|로|으로|이|은|부터|자|날|[,.!~]|\s*\(|$|"
            r"\s+(?:[월화수목금토일]요일|오전|오후|저녁|[01]?\d\s*시)))"
        ),
    ),
    ("the_nth", re.compile(r"\b(?:the\s+)(?P<d>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\b", re.I)),
    ("nth", re.compile(r"(?<![\w$£€])(?P<d>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\b", re.I)),
]
_REL_EN = re.compile(
    rf"\b(?P<rel>today|tonight|tomorrow|tmrw|tmr|tmw|day after tomorrow|"
    rf"(?P<mod>this|next|coming|on)?\s*{_WEEKDAY_RE}(?:\s+(?:the\s+)?{_DAY})?)\b"
    r"(?!\s*(?:s\b|nights?\b|mornings?\b)(?=\s*(?:are|is)))",
    re.I,
)
_REL_KO = re.compile(
    r"(?P<rel>오늘|내일|낼|모레|글피|"
    r"(?P<mod>이번\s*주|이번주|다음\s*주|다음주|담주|다다음\s*주|차주)?\s*"
    r"(?P<wd>[월화수목금토일])요일?(?:날)?)(?![가-힣]*마다)"
)


def _year_for(mo: int, d: int, now: date) -> int:
    """The year of a month/day said without one: this year, or next if long past."""
    try:
        cand = date(now.year, mo, d)
    except ValueError:
        return now.year
    return now.year + 1 if (now - cand).days > 60 else now.year


def _month_day(mo: int, d: int, y: int | None, now: date) -> str | None:
    y = y if y is not None else _year_for(mo, d, now)
    if y < 100:
        y += 2000
    try:
        return date(y, mo, d).isoformat()
    except ValueError:
        return None


def _day_of_month(d: int, now: date) -> str | None:
    """'the 24th': this month if not yet past, else next month."""
    y, mo = now.year, now.month
    if d < now.day:
        mo += 1
        if mo > 12:
            y, mo = y + 1, 1
    try:
        return date(y, mo, d).isoformat()
    except ValueError:
        return None


def _weekday(wd: int, now: date, mod: str | None) -> str:
    mod = (mod or "").replace(" ", "").casefold()
    if mod in ("다음주", "담주", "차주", "nextweek"):
        monday = now - timedelta(days=now.weekday()) + timedelta(days=7)
        return (monday + timedelta(days=wd)).isoformat()
    if mod == "다다음주":
        monday = now - timedelta(days=now.weekday()) + timedelta(days=14)
        return (monday + timedelta(days=wd)).isoformat()
    if mod in ("이번주", "this"):
        monday = now - timedelta(days=now.weekday())
        d = monday + timedelta(days=wd)
        return (d if d >= now else d + timedelta(days=7)).isoformat()
    ahead = (wd - now.weekday()) % 7 or 7
    if mod == "next" and ahead < 7 and wd > now.weekday():
        # "next Friday" said on a Monday: most people mean the Friday of next week.
        ahead += 7
    return (now + timedelta(days=ahead)).isoformat()


def _dates(text: str, now: date) -> list[ValueSpan]:
    out: list[ValueSpan] = []
    for name, pat in _DATE_PATTERNS:
        for m in pat.finditer(text):
            g = m.groupdict()
            d = int(g["d"])
            y = int(g["y"]) if g.get("y") else None
            if name in ("md_name", "dm_name"):
                mon = g["mon"].casefold().rstrip(".")
                if mon == "may" and not re.match(r"May", m.group(0)) and name == "md_name":
                    continue  # "may 3" is the verb more often than the month
                iso = _month_day(month_number(mon) or 0, d, y, now)
            elif name in ("iso", "slash", "ko_md"):
                iso = _month_day(int(g["mo"]), d, y, now)
            else:
                iso = _day_of_month(d, now)
            if iso:
                out.append(ValueSpan(m.start(), m.end(), "date", iso, m.group(0).strip()))
    for m in _REL_EN.finditer(text):
        rel = m.group("rel").casefold()
        if rel in ("today", "tonight"):
            iso = now.isoformat()
        elif rel in ("tomorrow", "tmrw", "tmr", "tmw"):
            iso = (now + timedelta(days=1)).isoformat()
        elif rel == "day after tomorrow":
            iso = (now + timedelta(days=2)).isoformat()
        else:
            wd = WEEKDAYS_EN.get(m.group("wd").casefold())
            if wd is None:
                continue
            if (
                m.group("wd").casefold() in ("sat", "sun", "wed", "mon")
                and not m.group("wd")[0].isupper()
                and not m.group("mod")
            ):
                continue  # lower-case "sat", "sun", "wed", "mon" are words too
            if m.group("d"):
                iso = _day_of_month(int(m.group("d")), now) or ""
            else:
                mod = m.group("mod")
                iso = _weekday(wd, now, mod.casefold() if mod else None)
            if not iso:
                continue
        out.append(ValueSpan(m.start("rel"), m.end(), "date", iso, m.group("rel").strip()))
    for m in _REL_KO.finditer(text):
        rel = m.group("rel")
        if rel == "오늘":
            iso = now.isoformat()
        elif rel in ("내일", "낼"):
            iso = (now + timedelta(days=1)).isoformat()
        elif rel == "모레":
            iso = (now + timedelta(days=2)).isoformat()
        elif rel == "글피":
            iso = (now + timedelta(days=3)).isoformat()
        else:
            whole = m.group(0)
            if not re.search(r"요일|날", whole) and not m.group("mod"):
                continue  # a bare 월/화/… is a word, not a day
            iso = _weekday(WEEKDAYS_KO[m.group("wd")], now, m.group("mod"))
        out.append(ValueSpan(m.start(), m.end(), "date", iso, m.group(0).strip()))
    return out


# ---------------------------------------------------------------------- money, rates
_CUR_SYM = {"$": "USD", "£": "GBP", "€": "EUR", "₩": "KRW", "¥": "JPY"}
_CUR_WORD = {
    "usd": "USD",
    "dollars": "USD",
    "dollar": "USD",
    "bucks": "USD",
    "gbp": "GBP",
    "pounds": "GBP",
    "pound": "GBP",
    "quid": "GBP",
    "eur": "EUR",
    "euros": "EUR",
    "euro": "EUR",
    "krw": "KRW",
    "won": "KRW",
    "sgd": "SGD",
    "jpy": "JPY",
    "yen": "JPY",
}
_MULT = {
    "k": 1e3,
    "K": 1e3,
    "m": 1e6,
    "M": 1e6,
    "mn": 1e6,
    "bn": 1e9,
    "thousand": 1e3,
    "million": 1e6,
    "grand": 1e3,
}
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MONEY_EN = [
    re.compile(
        rf"(?P<sym>[$£€₩¥])\s?(?P<n>{_NUMBER})(?!\d)\s?"
        r"(?P<mult>k|K|m|M|mn|bn|thousand|million)?(?:(?=pcm|pw|pa|ph|pppn|pn)|(?![\w]))"
    ),
    re.compile(
        rf"(?<![\w.,])(?P<n>{_NUMBER})\s?(?P<mult>k|K|m|M|thousand|million|grand)?\s?"
        r"(?P<word>usd|dollars?|bucks|gbp|pounds?|quid|eur|euros?|krw|won|sgd|jpy|yen)\b",
        re.I,
    ),
    re.compile(
        r"(?P<pre>USD|GBP|EUR|KRW|SGD|JPY)\s?(?P<n>\d[\d,]*(?:\.\d+)?)"
        r"\s?(?P<mult>k|K|m|M)?(?![\w])"
    ),
]
# Korean amounts: 120만 원, 1,200만원, 1.5억, 만 오천 원, 오십만 원, 3천원, 37만
_KO_AMOUNT = (
    # 억, then 만 (천만 too), then 천, then 백: "2만 5천원", "3천만 원", "1억 2천만".
    r"(?P<amt>(?:\d[\d,]*(?:\.\d+)?\s*억\s*)?(?:\d[\d,]*(?:\.\d+)?\s*천?\s*만\s*)?"
    r"(?:\d[\d,]*(?:\.\d+)?\s*천\s*)?(?:\d[\d,]*(?:\.\d+)?\s*백\s*)?(?:\d[\d,]*)?|"
    r"[일이삼사오육칠팔구십백천만억](?:\s?[일이삼사오육칠팔구십백천만억])*)"
)
# An amount in 만 or 억 written in digits, with its 천 ("37만", "1만 2천"); possessive, so
# "1만 2천 보" is not read as "1만" before "2천 보".
_KO_MAN_AMOUNT = r"\d[\d,]*(?:\.\d+)?\s*(?:억|만)(?:\s*\d[\d,]*\s*천)?+"
# Counter nouns: an amount in 만 or 억 before one counts things ("30만 장"), and the
# particles that may follow the counter.
_KO_COUNTERS = (
    "명|장|개|부|보|권|마리|곡|벌|켤레|가구|세대|그루|송이|포기|주|건|회|번|잔|병|표|석|평|톤"
)
_KO_COUNTER_PARTICLES = (
    "이|가|은|는|을|를|씩|도|까지|정도|쯤|의|에|로|으로|이나|이요|이에요|입니다|이야"
)
_MONEY_KO = re.compile(
    rf"(?<![\d\w.,]){_KO_AMOUNT}\s*(?P<won>원|만\s*원)(?!래|하|장|룸|서|인|본|칙|격|활|두|숭|반|작|전|리|형|점)|"
    rf"(?<![\d\w.,])(?P<amt2>{_KO_MAN_AMOUNT})"
    # "30만 장", "2만 명", "250만 주": a count of things, not won.
    rf"(?!\s*(?:{_KO_COUNTERS})(?:$|[^가-힣]|{_KO_COUNTER_PARTICLES}))"
    r"(?=\s*(?:으로|로|에|이|은|는|까지|씩|정도|선|$|[,.!?~ㅎㅋ)]|\s))"
)
_RATE_UNIT_EN = re.compile(
    r"^\s*(?:/|per\s+|an?\s+|each\s+|p/?)(?P<u>day|d|hour|hr|h|session|class|night|week|wk|"
    r"month|mo|year|yr|word|person|head|pax|visit|vist|lesson|page|item)\b|"
    r"^\s*(?P<u3>pcm|pw|ph|pa|pppn|pn|p\.?h\.?|/mo|/mth|a month|a week|an hour|a night)\b|"
    r"^\s*(?P<u2>daily|hourly|nightly|weekly|monthly|yearly|annually)\b",
    re.I,
)
_RATE_UNIT_PRE_EN = re.compile(
    r"\b(?P<u>day|daily|hourly|nightly|weekly|monthly|per[- ]session)\s+rate\s+(?:of\s+|is\s+|"
    r"at\s+|=\s*|:\s*)?$",
    re.I,
)
_RATE_UNITS = {
    "day": "day",
    "d": "day",
    "daily": "day",
    "hour": "hour",
    "hr": "hour",
    "h": "hour",
    "hourly": "hour",
    "session": "session",
    "class": "session",
    "lesson": "session",
    "night": "night",
    "nightly": "night",
    "week": "week",
    "wk": "week",
    "weekly": "week",
    "month": "month",
    "mo": "month",
    "monthly": "month",
    "year": "year",
    "yr": "year",
    "yearly": "year",
    "annually": "year",
    "word": "word",
    "person": "person",
    "head": "person",
    "pax": "person",
    "visit": "visit",
    "page": "page",
    "item": "item",
    "per-session": "session",
    "per session": "session",
    "vist": "visit",
    "pcm": "month",
    "pw": "week",
    "ph": "hour",
    "p.h.": "hour",
    "ph.": "hour",
    "pa": "year",
    "pppn": "night",
    "pn": "night",
    "/mo": "month",
    "/mth": "month",
    "a month": "month",
    "a week": "week",
    "an hour": "hour",
    "a night": "night",
}
_RATE_PRE_KO = re.compile(
    r"(?P<u>하루|일당|일일|1일|시간당|시급|시간에|한\s*시간에?|회당|1회|한\s*번에?|박당|1박|1박에|"
    r"월세?|한\s*달에?|매달|월\s*급여|연봉|1년|주당|인당|1인|1인당|장당|단어당|건당|페이지당|일급|"
    r"하루\s*일당|일\s*단가|단가)\s*(?:은|는|이|가|에|:)?\s*(?:기준\s*)?$"
)
_RATE_POST_KO = re.compile(r"^\s*(?P<u>/\s*(?:일|시간|회|월|박|주|인|h|day|hr))")
_RATE_KO_UNITS = {
    "하루": "day",
    "일당": "day",
    "일일": "day",
    "1일": "day",
    "일급": "day",
    "하루일당": "day",
    "일단가": "day",
    "시간당": "hour",
    "시급": "hour",
    "시간에": "hour",
    "한시간": "hour",
    "한시간에": "hour",
    "회당": "session",
    "1회": "session",
    "한번": "session",
    "한번에": "session",
    "박당": "night",
    "1박": "night",
    "1박에": "night",
    "월": "month",
    "월세": "month",
    "한달": "month",
    "한달에": "month",
    "매달": "month",
    "월급여": "month",
    "연봉": "year",
    "1년": "year",
    "주당": "week",
    "인당": "person",
    "1인": "person",
    "1인당": "person",
    "장당": "page",
    "단어당": "word",
    "건당": "item",
    "페이지당": "page",
    "/일": "day",
    "/시간": "hour",
    "/회": "session",
    "/월": "month",
    "/박": "night",
    "/주": "week",
    "/인": "person",
    "/h": "hour",
    "/day": "day",
    "/hr": "hour",
}


def _ko_amount(raw: str) -> float | None:
    s = raw.replace(" ", "").replace(",", "")
    if not s:
        return None
    if re.fullmatch(_SINO, s):
        n = hangul_number(s)
        return float(n) if n is not None else None
    total = 0.0
    rest = s
    for unit, mult in (("억", 1e8), ("천만", 1e7), ("만", 1e4), ("천", 1e3), ("백", 1e2)):
        if unit in rest:
            head, rest = rest.split(unit, 1)
            if unit == "만" and total and not head:
                head = "1"
            try:
                total += float(head or "1") * mult
            except ValueError:
                return None
    if rest:
        try:
            total += float(rest)
        except ValueError:
            return None
    return total


def _money(text: str) -> list[ValueSpan]:
    out: list[ValueSpan] = []
    for i, pat in enumerate(_MONEY_EN):
        for m in pat.finditer(text):
            g = m.groupdict()
            n = _num(g["n"])
            if n is None:
                continue
            mult = g.get("mult")
            n *= _MULT.get(mult, 1.0) if mult else 1.0
            if i == 0:
                cur = _CUR_SYM[g["sym"]]
            elif i == 1:
                cur = _CUR_WORD[g["word"].casefold()]
            else:
                cur = g["pre"].upper()
            out.append(
                ValueSpan(m.start(), m.end(), "money", f"{_fmt(n)} {cur}", m.group(0).strip())
            )
    for m in _MONEY_KO.finditer(text):
        raw = m.group("amt") if m.group("won") else m.group("amt2")
        if raw is None or not raw.strip():
            continue
        n = _ko_amount(raw)
        if n is None or n <= 0:
            continue
        if m.group("won") and m.group("won").startswith("만"):
            n *= 1e4
        if n < 100:
            continue  # "3원" is not how prices are said; "5만" without 원 needs 만
        start = m.start("amt") if m.group("won") else m.start("amt2")
        out.append(
            ValueSpan(start, m.end(), "money", f"{_fmt(n)} KRW", text[start : m.end()].strip())
        )
    return out


def _rates(text: str, money: list[ValueSpan]) -> list[ValueSpan]:
    """Money with a unit of time or use: '$40/hr', '£45 a session', '하루 75만 원'."""
    out = []
    for v in money:
        after, before = text[v.end : v.end + 24], text[max(0, v.start - 16) : v.start]
        unit, start, end = None, v.start, v.end
        m = _RATE_UNIT_EN.match(after)
        if m:
            u = (m.group("u") or m.group("u2") or m.group("u3")).casefold()
            unit, end = _RATE_UNITS.get(u), v.end + m.end()
        if unit is None:
            m2 = _RATE_POST_KO.match(after)
            if m2:
                unit, end = _RATE_KO_UNITS.get(m2.group("u").replace(" ", "")), v.end + m2.end()
        if unit is None:
            m3 = _RATE_PRE_KO.search(before)
            if m3:
                unit = _RATE_KO_UNITS.get(m3.group("u").replace(" ", ""))
                start = v.start - (len(before) - m3.start())
        if unit is None:
            m4 = _RATE_UNIT_PRE_EN.search(before)
            if m4:
                unit = _RATE_UNITS.get(m4.group("u").casefold().replace("-", " "))
        if unit:
            out.append(ValueSpan(start, end, "rate", f"{v.value}/{unit}", text[start:end]))
    return out


# ------------------------------------------------------- durations, counts, contacts
_DURATION_EN = re.compile(
    rf"(?<![\w.:$£€])(?P<n>\d+(?:\.\d+)?|{_EN_NUM_WORD}|an?|half an?)\s?(?:-\s?)?"
    r"(?P<u>minutes?|mins?|hours?|hrs?|h(?=\b)|days?|weeks?|wks?)\b",
    re.I,
)
_DURATION_KO = re.compile(
    rf"(?<![\d.])(?P<n>\d+(?:\.\d+)?|{_KO_NATIVE_WORD})\s*(?P<u>시간(?:\s*(?P<m>\d+)\s*분)?|"
    r"분(?=\s*(?:동안|정도|간|짜리|걸|소요|이면|만|이내|내|늦|일찍|$|[,.!?]))|"
    r"일(?=\s*(?:동안|간|정도|짜리|걸|소요|이면|이내))|주(?=\s*(?:동안|간|정도|짜리)))"
)
_COUNT_NOUNS_EN = (
    "people|persons|guests|pax|heads|adults|kids|children|of us|attendees|participants|"
    "cartons|boxes|pallets|units|pieces|items|copies|tickets|seats|sessions|nights|rooms|"
    "bags|bottles|tables|pages|slides|chairs|cases|crates|laptops|monitors|licenses|seats|"
    "spots|covers|players|volunteers|members|students|desks"
)
_COUNT_EN = re.compile(
    rf"(?<![\w.:$£€,])(?P<n>\d+|{_EN_NUM_WORD})\s+(?:more\s+|extra\s+|total\s+)?"
    rf"(?P<u>{_COUNT_NOUNS_EN})\b|\b(?:party|table|group|team) of (?P<n2>\d+|{_EN_NUM_WORD})\b",
    re.I,
)
_COUNT_KO = re.compile(
    # "30만 장", "1만 2천 보": a count in 만 and 천 too.
    rf"(?<![\d.,])(?P<n>{_KO_MAN_AMOUNT}|\d+|{_KO_NATIVE_WORD})"
    r"\s*(?P<u>명|인|개|박|장|대|병|권|박스|상자|팔레트|석|자리|세트|부|팀|테이블|좌석|매|벌|켤레|"
    # Counters that begin other words too (보내, 곡선): whole, or before a particle.
    rf"인분|(?:보|곡|마리|가구|세대)(?=$|[^가-힣]|{_KO_COUNTER_PARTICLES}))"
    r"(?![가-힣]{0,0}[가-힣]*(?:당|씩))"
)
_PHONE = re.compile(
    r"(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(?0?\d{1,4}\)?[\s.-]?)?\d{3,4}[\s.-]\d{4}(?!\d)|"
    r"(?<![\w+])01[016789]\d{7,8}(?!\d)"
)
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
_URL = re.compile(
    r"\bhttps?://[^\s<>\"')\]]+|\bwww\.[^\s<>\"')\]]+|"
    r"\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|kr|co|me|ly|gg|app|dev)/[^\s<>\"')\]]*",
    re.I,
)


_HOUR_AND_HALF = re.compile(
    rf"(?<![\w])(?P<n>\d+|{_EN_NUM_WORD}|an?)\s+hours?\s+and\s+a\s+half\b|"
    r"(?<![\w.])(?P<h>\d+)\s?h\s?(?P<m>[0-5]\d)\s?m?\b|(?<![\w])(?P<hh>\d+)\s*시간\s*반",
    re.I,
)


# A length of time as people write it, more loosely than a value the recognizer reads:
# ranges and kinds of day ("3 to 5 working days", "two and a half hours", "6주 잡으시면",
# "3영업일", "1박 2일", "5년이고요"). It says a record may state a duration; it reads
# no value.
_LENGTH_EN = re.compile(
    rf"(?<![\w.:$£€])(?:\d+(?:\.\d+)?|{_EN_NUM_WORD}|an?|a few|several|half an?)"
    rf"(?:\s*(?:-|–|to|or)\s*(?:\d+(?:\.\d+)?|{_EN_NUM_WORD}))?"
    r"(?:\s+and\s+a\s+half)?\s*(?:-\s*)?(?:(?:full|working|business|school|calendar|whole)\s+)?"
    r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|yrs?|years?|fortnights?)\b"
    r"|\ba fortnight\b|\bhalf an? (?:hour|day)\b",
    re.I,
)
_LENGTH_KO = re.compile(
    rf"(?<![\d.])(?P<n>\d+(?:\.\d+)?|{_KO_NATIVE_WORD})\s*(?:~\s*\d+\s*)?"
    r"(?P<u>영업일|개월|달|시간|박\s*\d+\s*일|주(?![년차기])|년(?![생도])|분(?!기)|"
    r"일(?=\s*(?:동안|간|정도|짜리|걸|소요|이면|이내|만에|잡|은\s*잡|쯤|이나)))"
    # "2주에 한 번", "한 달에 30만원": how often or how much, not how long.
    r"(?!\s*(?:에\s|에$|마다|당|씩))"
)


def states_a_length(text: str, spans: Sequence[ValueSpan] | None = None) -> bool:
    """Whether a text states a length of time somewhere, as loosely as people write one
    (``_LENGTH_EN``, ``_LENGTH_KO``): minutes only in digits and never a clock's
    ("2시 40분"; "세 분" are three people), years only below a hundred ("2026년").
    ``spans``: the text's ``find_values``, where the caller has them already."""
    if _LENGTH_EN.search(text):
        return True
    if any(sp.kind == "duration" for sp in (find_values(text) if spans is None else spans)):
        return True
    for m in _LENGTH_KO.finditer(text):
        n, unit = m.group("n"), m.group("u")
        if unit in ("분", "년") and not n[0].isdigit():
            continue
        if unit == "분" and re.search(r"시\s*(?:반\s*)?$", text[: m.start()]):
            continue
        if unit == "년" and float(n) >= 100:
            continue
        return True
    return False


def _durations(text: str) -> list[ValueSpan]:
    out = []
    for m in _HOUR_AND_HALF.finditer(text):
        if m.group("h"):
            minutes = int(m.group("h")) * 60 + int(m.group("m"))
        else:
            raw = (m.group("n") or m.group("hh")).casefold()
            n = 1.0 if raw in ("a", "an") else _num(raw)
            if n is None:
                continue
            minutes = int(n * 60 + 30)
        out.append(ValueSpan(m.start(), m.end(), "duration", f"{minutes} min", m.group(0).strip()))
    for m in _DURATION_EN.finditer(text):
        if m.group("u") in ("H", "D", "W"):
            continue  # "27H", "4D": codes, not durations
        raw = m.group("n").casefold()
        n = 0.5 if raw.startswith("half") else 1.0 if raw in ("a", "an") else _num(raw)
        if n is None:
            continue
        u = m.group("u").casefold()
        if u.startswith(("d",)):
            value = f"{_fmt(n)} day"
        elif u.startswith("w"):
            value = f"{_fmt(n * 7)} day"
        elif u.startswith("h"):
            value = f"{_fmt(n * 60)} min"
        else:
            value = f"{_fmt(n)} min"
        out.append(ValueSpan(m.start(), m.end(), "duration", value, m.group(0).strip()))
    for m in _DURATION_KO.finditer(text):
        n = _num(m.group("n"))
        if n is None:
            continue
        u = m.group("u")
        if u.startswith("시간"):
            total = n * 60 + (int(m.group("m")) if m.group("m") else 0)
            value = f"{_fmt(total)} min"
        elif u.startswith("분"):
            value = f"{_fmt(n)} min"
        elif u.startswith("일"):
            value = f"{_fmt(n)} day"
        else:
            value = f"{_fmt(n * 7)} day"
        out.append(ValueSpan(m.start(), m.end(), "duration", value, m.group(0).strip()))
    return out


_NUMBER_ALONE = re.compile(
    r"(?<![\w.,:/$£€₩+-])(?P<n>\d{1,3}(?:\.\d+)?)(?![A-Za-z0-9_.,:/%-]|\s?[$£€₩])"
    r"(?!\s*(?:시|분|일|월|년|명|개|층|호|번|원|만|천|억|박|장|주|살|세|달|시간|인|회|차|등|위|점))"
)


_HOUR_AFTER = re.compile(
    r"(?<![\w])(?:at|to|till|til|until|from|by|@|around|before|after)\s+$", re.I
)


def _numbers(text: str) -> list[ValueSpan]:
    """Numbers standing alone ("ok 11 it is", "37로 가시죠"): read only in context. An
    hour after "at", "to", "till" ("moves to 7", "2 till 5") is a bare time."""
    out = []
    for m in _NUMBER_ALONE.finditer(text):
        n = m.group("n")
        before, after = text[max(0, m.start() - 12) : m.start()], text[m.end() : m.end() + 8]
        if (
            n.isdigit()
            and 1 <= int(n) <= 12
            and (_HOUR_AFTER.search(before) or re.match(r"\s+(?:till|til|until|to|-)\s+\d", after))
        ):
            out.append(ValueSpan(m.start(), m.end(), "bare_time", f"{int(n):02d}:00", n))
        else:
            out.append(ValueSpan(m.start(), m.end(), "number", n, n))
    return out


def _counts(text: str) -> list[ValueSpan]:
    out = []
    for m in _COUNT_EN.finditer(text):
        raw = m.group("n") or m.group("n2")
        n = _num(raw)
        if n is None:
            continue
        out.append(ValueSpan(m.start(), m.end(), "count", _fmt(n), m.group(0).strip()))
    for m in _COUNT_KO.finditer(text):
        raw = m.group("n")
        n = _ko_amount(raw) if ("만" in raw or "억" in raw) else _num(raw)
        if n is None:
            continue
        out.append(ValueSpan(m.start(), m.end(), "count", _fmt(n), m.group(0).strip()))
    return out


def _contacts(text: str) -> list[ValueSpan]:
    out = []
    for m in _EMAIL.finditer(text):
        out.append(ValueSpan(m.start(), m.end(), "email", m.group(0).casefold(), m.group(0)))
    for m in _URL.finditer(text):
        url = m.group(0).rstrip(".,!?;:")
        out.append(ValueSpan(m.start(), m.start() + len(url), "url", url, url))
    for m in _PHONE.finditer(text):
        raw = m.group(0).strip()
        digits = re.sub(r"\D", "", raw)
        if len(digits) < 7:
            continue
        value = ("+" + digits) if raw.startswith("+") else digits
        # +82 10-…: the trunk 0 is dropped after a country code, as written.
        out.append(ValueSpan(m.start(), m.end(), "phone", value, raw))
    return out


# --------------------------------------------------------------------------- rooms
_ROOM = [
    # room 4B, rm 12, Room B, conference room 3, studio 2, court 6, desk 12-034, gate B12
    re.compile(
        r"(?<![\w])(?P<pre>(?:conference\s+|meeting\s+)?(?:room|rm\.?|studio|court|"
        r"desk|gate|suite|bay|lab|hall|booth|pod|stage|field|platform|office)\s*#?)"
        r"(?P<code>[A-Z]?\d{1,4}(?:-\d{1,4})?[A-Z]?|[A-Z](?![a-z]))(?![\w])",
        re.I,
    ),
    # bare codes: 4B, 12A, B2, 6-A (not Q3, 4K, 5G, 3D, 2FA, times, sizes)
    re.compile(r"(?<![\w$£€.:/-])(?P<code>\d{1,3}[A-HJ-NPR-Z]|[A-HJ-NPR-Z]\d{1,3})(?![\w%])"),
    # B회의실, 4B호, 402호실, 3층, 12층, 2번 세미나실, 회의실 A, 대회의실, 소회의실
    re.compile(
        r"(?<![\w])(?P<code>[A-Za-z0-9-]{1,6})\s*(?P<suf>호실|호(?!선|주|텔)|회의실|강의실|"
        r"세미나실|층|번\s*(?:방|회의실|세미나실|강의실|룸|게이트|창구|테이블))"
    ),
    re.compile(r"(?:(?<![가-힣])제\s*\d+|대|중|소)\s*(?:회의실|강의실|세미나실)"),
    re.compile(
        r"(?P<suf2>회의실|강의실|세미나실|미팅룸|룸)\s*(?P<code>[A-Z][A-Za-z0-9-]*|\d+[A-Z]?)"
        r"(?![A-Za-z0-9])(?!\s*(?:시|분|층|월|일|원|만))"
    ),
]
# Codes that are not rooms: sizes and units (4K, 5G, 2M, 3D), quarters and versions (Q3,
# V2), ordinals, and hours or am/pm written short in lower case (7a, 9p, 23h).
_NOT_ROOM_CODES = re.compile(
    r"^(?:\d+[KMG]|[1-4]D|[QqVvXx]\d+|\d+(?:st|nd|rd|th)|[Pp][Mm]\d*|"
    r"[Aa][Mm]\d*|\d+[kmgdhpxa])$"
)


def _rooms(text: str) -> list[ValueSpan]:
    out = []
    for i, pat in enumerate(_ROOM):
        for m in pat.finditer(text):
            g = m.groupdict()
            raw = m.group(0).strip()
            if i == 0:
                code = g["code"].upper() if len(g["code"]) <= 4 else g["code"]
                pre = re.sub(r"[\s#.]+", " ", g["pre"]).strip().casefold()
                word = pre.split()[-1] if pre else "room"
                word = "room" if word == "rm" else word
                value = code if word in ("room",) else f"{word.capitalize()} {code}"
            elif i == 1:
                code = g["code"]
                if _NOT_ROOM_CODES.match(code) or not re.search(r"[A-Z]", code):
                    continue
                value = code
            elif i == 2:
                code = g["code"]
                if _NOT_ROOM_CODES.match(code) and not g["suf"].startswith(("층", "호")):
                    continue
                suf = re.sub(r"\s+", " ", g["suf"])
                if suf.startswith("호"):
                    value = f"{code}호"
                elif suf == "층":
                    if not code.isdigit() and not re.fullmatch(r"B\d", code):
                        continue
                    value = f"{code}층"
                elif suf.startswith("번"):
                    value = f"{code}번 {suf[1:].strip()}"
                else:
                    value = f"{code}{suf}"
            elif i == 3:
                value = re.sub(r"\s+", "", raw)
            else:
                value = f"{g['suf2']} {g['code']}"
            out.append(ValueSpan(m.start(), m.end(), "room", value, raw))
    return out


# ------------------------------------------------------------------------- public
def find_values(text: str, now: datetime | date | None = None) -> list[ValueSpan]:
    """Every typed value in ``text``; overlapping candidates resolve to the longest."""
    today = (now.date() if isinstance(now, datetime) else now) or date.today()
    money = _money(text)
    cands = [
        *_contacts(text),
        *money,
        *_rates(text, money),
        *_dates(text, today),
        *_times(text),
        *_rooms(text),
        *_durations(text),
        *_counts(text),
        *_numbers(text),
    ]
    chosen = longest_spans(cands, lambda v: v.start, lambda v: v.end, lambda v: _KIND_ORDER[v.kind])
    return [v for v in chosen if v.text.strip()]
