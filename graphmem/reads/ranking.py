"""Block ranking: BM25F over weighted fields, with precomputed postings.

BM25F (Robertson et al., "Simple BM25 extension to multiple weighted fields") is not in
the BM25 libraries we could use, and a block ranks a namespace's active records, so plain
Python with postings computed once per snapshot is enough.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence

from graphmem.language.text import HANGUL_SYLLABLE

__all__ = ["BM25F", "STOPWORDS", "KoreanMorphemes", "simple_tokens", "stemmed_tokens"]

_WORD = re.compile(r"[\w]+", re.UNICODE)


def simple_tokens(text: str) -> list[str]:
    """Lower-cased word tokens; Hangul runs also give character bigrams (no analyzer)."""
    out = []
    for w in _WORD.findall(text.casefold()):
        out.append(w)
        if HANGUL_SYLLABLE.search(w) and len(w) > 2:
            out.extend(w[i : i + 2] for i in range(len(w) - 1))
    return out


_STEMMERS = threading.local()  # PyStemmer objects are not thread-safe: one per thread


def stemmed_tokens(text: str) -> list[str]:
    """``simple_tokens`` with English words reduced to their Snowball stems, so a question
    about what someone "researched" finds the turn where they talk about "research"."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        import Stemmer

        stemmer = _STEMMERS.english = Stemmer.Stemmer("english")
    return stemmer.stemWords(simple_tokens(text))


_CONTENT_TAGS = ("NN", "NR", "NP", "SL", "SN", "SH", "XR", "VV", "VA", "MAG")


class KoreanMorphemes:
    """Tokens for mixed Korean/English text: Kiwi content morphemes for Hangul runs
    (names registered as user words stay whole), lower-cased words for the rest.

    The alternative, character bigrams (``simple_tokens``), is measured beside it in
    BENCHMARKS.md.
    """

    def __init__(self, names: Sequence[str] = ()) -> None:
        from graphmem.language.korean import KoreanAnalyzer

        self.analyzer = KoreanAnalyzer(user_words=names)
        self.names = {n.casefold() for n in names}
        self._cache: dict[str, list[str]] = {}

    def __call__(self, text: str) -> list[str]:
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        if not HANGUL_SYLLABLE.search(text):
            out = _WORD.findall(text.casefold())
        else:
            out = []
            for t in self.analyzer.tokens(text):
                if t.pos == "NNB" or t.is_particle or not t.pos.startswith(_CONTENT_TAGS):
                    continue
                form = t.norm.casefold()
                out.append(form)
                if form in self.names and len(form) == 3:
                    out.append(form[1:])  # the given name people are called by: 민준
        if len(self._cache) < 200_000:
            self._cache[text] = out
        return out


class BM25F:
    """BM25F: per-field weighted term frequencies with per-field length normalization.

    The weighted, normalized frequency of a term in a document does not depend on the
    query, so it is computed once into the postings; a query is then a sum over the
    postings of its terms.
    """

    def __init__(self, docs: Sequence[Mapping[str, str]], weights: Mapping[str, float],
                 k1: float = 1.2, b: float = 0.75,
                 tokenize: Callable[[str], list[str]] = simple_tokens) -> None:
        self.k1, self.b, self.weights, self.tokenize = k1, b, dict(weights), tokenize
        per_doc = [{f: Counter(tokenize(d.get(f, "") or "")) for f in weights} for d in docs]
        self.n = len(per_doc)
        self.avg = {
            f: (sum(sum(p[f].values()) for p in per_doc) / self.n if self.n else 1.0) or 1.0
            for f in weights
        }
        self.df: Counter[str] = Counter()
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, per in enumerate(per_doc):
            wtf = self._wtf(per)
            self.df.update(wtf.keys())
            for t, w in wtf.items():
                self.postings[t].append((i, w))

    def _wtf(self, per: Mapping[str, Counter[str]]) -> dict[str, float]:
        out: dict[str, float] = defaultdict(float)
        for f, w in self.weights.items():
            c = per[f]
            if not c:
                continue
            norm = 1 - self.b + self.b * sum(c.values()) / self.avg[f]
            for t, n in c.items():
                out[t] += w * n / norm
        return out

    def idf(self, term: str) -> float:
        df = self.df.get(term, 0)
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def query_terms(self, query: str) -> set[str]:
        return {t for t in self.tokenize(query) if t not in STOPWORDS}

    def scores(self, query: str) -> dict[int, float]:
        """Scores of every document sharing a term with the query.

        A term in more than a tenth of a large index adds little (idf near 0) but costs a
        pass over its postings; when the query has rarer terms, such terms are skipped.
        """
        acc: dict[int, float] = defaultdict(float)
        k1 = self.k1
        terms = self.query_terms(query)
        limit = max(1000, self.n // 10)
        rare = {t for t in terms if 0 < self.df.get(t, 0) <= limit}
        for t in rare or terms:
            idf = self.idf(t)
            for doc, w in self.postings.get(t, ()):
                acc[doc] += idf * w / (k1 + w)
        return acc

    def score_fields(self, query: str, fields: Mapping[str, str]) -> float:
        """Score a document outside the index with the index's statistics (fresh reads)."""
        wtf = self._wtf({f: Counter(self.tokenize(fields.get(f, "") or ""))
                         for f in self.weights})
        return sum(self.idf(t) * wtf[t] / (self.k1 + wtf[t])
                   for t in self.query_terms(query) if t in wtf)


# Function words that carry no identity or slot: dropped from queries (not from indexes).
STOPWORDS = frozenset({
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "at", "in", "on", "of", "to",
    "for", "with", "and", "or", "by", "from", "as", "it", "its", "this", "that", "these",
    "those", "what", "when", "where", "which", "who", "whom", "how", "do", "does", "did",
    "about", "into", "my", "your", "our", "their", "his", "her",
})
