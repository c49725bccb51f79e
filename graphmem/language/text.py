"""Plain text facts about Korean and English that every part of graphmem shares.

Hangul detection, the particles that follow a Korean noun, the titles and honorifics
that follow a Korean name, and "the longest of overlapping spans wins". No analyzer is
loaded here: anchoring, block identity, keys and extractors import this on hot paths.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

__all__ = [
    "HANGUL_ANY",
    "HANGUL_SYLLABLE",
    "KOREAN_DOUBLE_SURNAMES",
    "KOREAN_FULL_NAME",
    "KOREAN_PARTICLES",
    "KOREAN_RANK_TITLES",
    "KOREAN_SURNAMES",
    "KOREAN_TITLES",
    "has_hangul",
    "is_hangul_syllable",
    "korean_address_forms",
    "longest_spans",
    "particle_stems",
    "strip_korean_title",
]

# Hangul syllables (가-힣): what names and particles are written in.
HANGUL_SYLLABLE = re.compile(r"[\uac00-\ud7a3]")
# Syllables, Jamo and compatibility Jamo (ㅋㅋ, ㅇㅋ): any Korean writing at all.
HANGUL_ANY = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")

# Korean surnames: the common one-syllable ones, and the two-syllable ones (남궁민수).
KOREAN_SURNAMES = (
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진지엄채원천방공현함변"
    "염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예봉경사부가복태목형계피두감음빈동온호범좌"
)
KOREAN_DOUBLE_SURNAMES: tuple[str, ...] = ("남궁", "선우", "제갈", "황보", "독고", "사공", "서문")
# A Korean full name as a pattern: a surname and two syllables (김민준, 남궁민수).
KOREAN_FULL_NAME = (
    rf"(?:{'|'.join(KOREAN_DOUBLE_SURNAMES)})[가-힣]{{2}}|[{KOREAN_SURNAMES}][가-힣]{{2}}"
)


def has_hangul(text: str) -> bool:
    """Any Korean writing in ``text`` (syllables or Jamo)."""
    return HANGUL_ANY.search(text) is not None


def is_hangul_syllable(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


# Case particles, endings and honorific particles that follow a noun, longest first.
KOREAN_PARTICLES: tuple[str, ...] = tuple(
    sorted(
        set(
            [
                "의",
                "은",
                "는",
                "이",
                "가",
                "을",
                "를",
                "에",
                "에서",
                "에게",
                "으로",
                "로",
                "와",
                "과",
                "도",
                "만",
                "께",
                "한테",
                "이랑",
                "랑",
                "하고",
                "까지",
                "부터",
                "보다",
                "처럼",
                "이야",
                "야",
                "이에요",
                "예요",
                "에는",
                "에서는",
                "으로는",
                "로는",
                "와는",
                "과는",
                "님",
                "님의",
                "님에게",
                "님은",
                "님이",
                "님께",
                "님과",
                "님하고",
                "님이랑",
                "씨",
                "씨랑",
                "씨와",
                "씨의",
                # A given name ending in a consonant takes 이 before particles, and 아 when called
                # ("민준이가", "민준이는", "지은아").
                "이가",
                "이는",
                "이도",
                "이를",
                "이한테",
                "이에게",
                "이의",
                "이만",
                "이하고",
                "이와",
                "아",
            ]
        ),
        key=lambda p: (-len(p), p),
    )
)

# Titles and honorifics that follow a Korean name and are not part of it, longest first.
KOREAN_TITLES: tuple[str, ...] = (
    "팀장님",
    "부장님",
    "과장님",
    "차장님",
    "대리님",
    "사장님",
    "실장님",
    "이사님",
    "대표님",
    "선생님",
    "교수님",
    "원장님",
    "박사님",
    "선배님",
    "매니저님",
    "주임님",
    "반장님",
    "회장님",
    "총무님",
    "작가님",
    "기사님",
    "코치님",
    "감독님",
    "형님",
    "팀장",
    "부장",
    "과장",
    "차장",
    "대리",
    "사장",
    "실장",
    "이사",
    "대표",
    "선생",
    "교수",
    "원장",
    "박사",
    "선배",
    "매니저",
    "주임",
    "언니",
    "오빠",
    "누나",
    "쌤",
    "님",
    "씨",
    "군",
    "양",
)


def strip_korean_title(name: str) -> str:
    """'김민준님' → '김민준', '박 팀장님' → '박'. Only when a Hangul name stays behind."""
    s = name.strip()
    if not s or not is_hangul_syllable(s[-1]):  # every title ends in Hangul
        return s
    if s in KOREAN_TITLES:  # the title alone is what the person is called
        return s
    for title in KOREAN_TITLES:
        if s.endswith(title):
            rest = s[: -len(title)].rstrip()
            # Single-syllable titles (님, 씨, 군, 양) only after a 2+ syllable Hangul name,
            # so '양' in '태양' or a one-syllable surname is not cut.
            min_len = 2 if len(title) == 1 else 1
            if len(rest) >= min_len and is_hangul_syllable(rest[-1]):
                return rest
    return s


def particle_stems(token: str, *, min_stem: int = 2, first_only: bool = False) -> list[str]:
    """What ``token`` may be without a trailing particle: '민준이랑' → ['민준'].

    Each stem keeps at least ``min_stem`` characters. A stem is a reading to try, never
    a replacement: '이가' may be a name. ``first_only`` keeps the longest particle's stem.
    """
    out: list[str] = []
    if not token or not is_hangul_syllable(token[-1]):  # every particle ends in Hangul
        return out
    for particle in KOREAN_PARTICLES:  # longest first
        if token.endswith(particle) and len(token) - len(particle) >= min_stem:
            out.append(token[: -len(particle)])
            if first_only:
                break
    return out


S = TypeVar("S")


def longest_spans(
    spans: Iterable[S],
    start: Callable[[S], int],
    end: Callable[[S], int],
    tie: Callable[[S], object] = lambda s: 0,
) -> list[S]:
    """Non-overlapping spans, the longest of overlapping ones winning, in text order.

    Ties in length go to the earlier span, then to ``tie``'s smaller value.
    """
    chosen: list[S] = []
    for s in sorted(spans, key=lambda s: (start(s) - end(s), start(s), tie(s))):
        if all(end(s) <= start(c) or start(s) >= end(c) for c in chosen):
            chosen.append(s)
    return sorted(chosen, key=start)


# How Koreans call someone by a given name, from what is written on or after it: as a
# friend or someone younger (소연아, 소연이), a teacher (소연쌤), an older friend or
# sibling (소연 언니, 경호형), by rank (하준 팀장님), with 님 or 씨.
KOREAN_RANK_TITLES: tuple[str, ...] = (
    "팀장",
    "부장",
    "과장",
    "차장",
    "대리",
    "사장",
    "실장",
    "이사",
    "대표",
    "원장",
    "교수",
    "박사",
    "매니저",
    "주임",
    "반장",
    "회장",
    "총무",
    "작가",
    "기사",
    "코치",
    "감독",
    "관장",
    "기자",
)
_ADDRESS_FORMS: tuple[tuple[str, str], ...] = tuple(
    (title, form)
    for form, titles in (
        ("선생", "선생님 선생 쌤 샘"),
        ("elder", "형님 언니 누나 오빠 형"),
        ("rank", " ".join(KOREAN_RANK_TITLES)),
        ("님", "님"),
        ("씨", "씨"),
    )
    for title in titles.split()
)


def _address_form(after: str) -> str | None:
    if after[:1] in ("아", "야", "이"):
        return "intimate"  # 소연아, 소연이, 도윤이랑: said to a friend or someone younger
    word = after.lstrip()
    return next((form for title, form in _ADDRESS_FORMS if word.startswith(title)), None)


def korean_address_forms(text: str, given: str) -> set[str]:
    """The ways a text calls someone by the Hangul given name ``given``: 'intimate',
    '선생', 'elder', 'rank', '님' or '씨'. A bare name says none; a name inside a longer
    word (a full name, another word) is not counted."""
    forms: set[str] = set()
    if not given or not is_hangul_syllable(given[-1]):
        return forms
    start = text.find(given)
    while start >= 0:
        end = start + len(given)
        if start == 0 or not is_hangul_syllable(text[start - 1]):
            form = _address_form(text[end : end + 8])
            if form is not None:
                forms.add(form)
        start = text.find(given, end)
    return forms
