"""Language analysis: tokens, sentences and particle-aware name spans (English, Korean).

Importing this package is cheap: spaCy and Kiwi load on first use, once per process.
"""

from graphmem.language.base import Analyzer, NameSpan, Token
from graphmem.language.detect import AutoAnalyzer, detect_language, has_hangul
from graphmem.language.english import EnglishAnalyzer
from graphmem.language.korean import KoreanAnalyzer, name_spans, strip_particles_and_honorifics

__all__ = [
    "Analyzer",
    "AutoAnalyzer",
    "EnglishAnalyzer",
    "KoreanAnalyzer",
    "NameSpan",
    "Token",
    "detect_language",
    "has_hangul",
    "name_spans",
    "strip_particles_and_honorifics",
]
