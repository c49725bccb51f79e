"""Which analyzer reads a text: Korean when it contains Hangul, English otherwise.

Records mix scripts ("Christian Abbiati가 …"); any Hangul means Korean grammar glues
particles to words, and Kiwi also tokenizes the Latin parts, so Korean wins. An
``AutoAnalyzer`` lets an extractor take one analyzer and still read both languages.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from graphmem.language.base import Analyzer, NameSpan, Token
from graphmem.language.english import EnglishAnalyzer
from graphmem.language.korean import KoreanAnalyzer
from graphmem.language.text import has_hangul

__all__ = ["AutoAnalyzer", "detect_language", "has_hangul"]


def detect_language(text: str) -> Literal["ko", "en"]:
    """'ko' when the text has any Hangul, else 'en'."""
    return "ko" if has_hangul(text) else "en"


class AutoAnalyzer:
    """Dispatches each call to the English or Korean analyzer by ``detect_language``.

    User words go to both, so a name registered once is found in either language.
    """

    lang = "auto"

    def __init__(
        self,
        user_words: Iterable[str] = (),
        english: Analyzer | None = None,
        korean: Analyzer | None = None,
    ) -> None:
        self.english: Analyzer = english if english is not None else EnglishAnalyzer()
        self.korean: Analyzer = korean if korean is not None else KoreanAnalyzer()
        self.add_user_words(user_words)

    def for_text(self, text: str) -> Analyzer:
        return self.korean if has_hangul(text) else self.english

    def add_user_words(self, names: Iterable[str]) -> None:
        names = list(names)
        self.english.add_user_words(names)
        self.korean.add_user_words(names)

    def tokens(self, text: str) -> list[Token]:
        return self.for_text(text).tokens(text)

    def sentences(self, text: str) -> list[str]:
        return self.for_text(text).sentences(text)

    def name_spans(self, text: str, names: Iterable[str] | None = None) -> list[NameSpan]:
        return self.for_text(text).name_spans(text, names)
