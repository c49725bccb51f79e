"""English analysis with a blank spaCy pipeline: tokenizer + sentencizer, nothing trained.

No model can be downloaded where graphmem runs, and the slot rules only need offsets,
sentence boundaries and a normalized form, which spaCy's rule-based tokenizer gives
(``norm_`` already maps "n't" to "not"). Lemmas would need ``spacy-lookups-data``; when
it is not installed ``Token.norm`` is the lower-cased norm instead, and rules list the
inflections they care about. The pipeline is built once per process, on first use,
because importing spaCy takes about a second.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

from graphmem.language.base import (
    NameSpan,
    Token,
    clean_names,
    maximal_spans,
    may_occur,
    merge_name_tokens,
    name_regex,
)

if TYPE_CHECKING:
    from spacy.language import Language

__all__ = ["PRONOUNS", "EnglishAnalyzer", "shared_pipeline"]

PRONOUNS = frozenset(
    {
        "he",
        "she",
        "they",
        "it",
        "him",
        "her",
        "them",
        "his",
        "hers",
        "their",
        "theirs",
        "its",
        "i",
        "me",
        "my",
        "mine",
        "we",
        "us",
        "our",
        "ours",
        "you",
        "your",
        "yours",
    }
)
_POSSESSIVE = frozenset({"'s", "’s", "'", "’"})
_NEGATION = frozenset({"not", "n't", "n’t", "never", "no"})

_lock = threading.Lock()
_nlp: Language | None = None


def shared_pipeline() -> Language:
    """The process-wide blank English pipeline (tokenizer + sentencizer)."""
    global _nlp
    if _nlp is None:
        with _lock:
            if _nlp is None:
                import spacy

                nlp = spacy.blank("en")
                nlp.add_pipe("sentencizer")
                _nlp = nlp
    return _nlp


class EnglishAnalyzer:
    """Word-boundary names and spaCy tokens; cheap to construct (spaCy loads lazily)."""

    lang = "en"

    def __init__(self, user_words: Iterable[str] = ()) -> None:
        self._names: set[str] = set()
        self.add_user_words(user_words)

    @property
    def user_words(self) -> frozenset[str]:
        return frozenset(self._names)

    def add_user_words(self, names: Iterable[str]) -> None:
        """Remembered so that ``tokens`` keeps each name as one token."""
        self._names.update(clean_names(names))

    def tokens(self, text: str) -> list[Token]:
        doc = shared_pipeline().make_doc(text)
        out: list[Token] = []
        prev_lower = ""
        for t in doc:
            if t.is_space:
                continue
            lower = t.lower_
            norm = t.norm_.lower() if lower not in _POSSESSIVE else lower
            # "'s" after a pronoun is "is" ("it's"); after anything else it is possessive.
            possessive = lower in _POSSESSIVE and prev_lower not in PRONOUNS
            if t.is_punct and not possessive:
                pos = "PUNCT"
            elif t.like_num:
                pos = "NUM"
            elif lower in PRONOUNS:
                pos = "PRON"
            elif possessive or lower in _NEGATION:
                pos = "PART"
            else:
                pos = "X"  # a blank pipeline has no tagger; rules must not rely on more
            out.append(Token(t.text, norm, t.idx, t.idx + len(t.text), pos, possessive))
            prev_lower = lower
        if self._names:
            out = merge_name_tokens(text, out, self.name_spans(text), "PROPN")
        return out

    def sentences(self, text: str) -> list[str]:
        doc = shared_pipeline()(text)
        return [s.text.strip() for s in doc.sents if s.text.strip()]

    def name_spans(self, text: str, names: Iterable[str] | None = None) -> list[NameSpan]:
        """Case-insensitive whole-word occurrences; "Alex's" contains "Alex", "Alexa" not."""
        wanted = clean_names(self._names if names is None else names)
        spans: list[NameSpan] = []
        folded = text.casefold()
        for name in wanted:
            if not may_occur(name, folded):
                continue
            for m in name_regex(name).finditer(text):
                s, e = m.span()
                if (s > 0 and _is_word(text[s - 1])) or (e < len(text) and _is_word(text[e])):
                    continue
                spans.append(NameSpan(s, e, name))
        return maximal_spans(spans)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"
