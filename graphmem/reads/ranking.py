"""Block ranking: BM25F over weighted fields, with precomputed postings.

BM25F (Robertson et al., "Simple BM25 extension to multiple weighted fields") is not in
the BM25 libraries we could use (bm25s scores one field), so the postings are our own:
numpy arrays computed once per snapshot, summed per query with array operations.
"""

from __future__ import annotations

import functools
import math
import re
import threading
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from graphmem.language.text import HANGUL_SYLLABLE

__all__ = [
    "BM25F",
    "MAX_MENTIONS",
    "STOPWORDS",
    "KoreanMorphemes",
    "mention_keys",
    "simple_tokens",
    "stemmed_tokens",
]

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
    stems: list[str] = stemmer.stemWords(simple_tokens(text))
    return stems


_CONTENT_TAGS = ("NN", "NR", "NP", "SL", "SN", "SH", "XR", "VV", "VA", "MAG")


class KoreanMorphemes:
    """Tokens for mixed Korean/English text: Kiwi content morphemes for Hangul runs
    (names registered as user words stay whole), lower-cased words for the rest.

    The alternative, character bigrams (``simple_tokens``), is measured beside it in
    BENCHMARKS.md.
    """

    def __init__(self, names: Sequence[str] = (), cache_size: int = 200_000) -> None:
        """``cache_size``: texts whose tokens are kept (an index's own records; 0 where
        the texts are not one namespace's, so no record's text outlives its erase)."""
        from graphmem.language.korean import KoreanAnalyzer

        self.analyzer = KoreanAnalyzer(user_words=names)
        self.names = {n.casefold() for n in names}
        self.cache_size = cache_size
        self._cache: dict[str, tuple[str, ...]] = {}

    def __call__(self, text: str) -> list[str]:
        hit = self._cache.get(text)
        if hit is not None:
            return list(hit)
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
        if len(self._cache) < self.cache_size:
            self._cache[text] = tuple(out)  # tuples of strings leave the GC's tracking
        return out


# A record keeps at most this many mentions (a turn rarely holds more content words).
MAX_MENTIONS = 48


@functools.cache
def _mention_morphemes() -> KoreanMorphemes:
    return KoreanMorphemes(cache_size=0)  # texts of every namespace pass: none is kept


def mention_keys(text: str, names: Sequence[str] = ()) -> list[str]:
    """What a record mentions, as evidence walks it: its content words as the raw-record
    ranking reads them (an English word's Snowball stem, a Korean content morpheme), less
    function words, numbers and the words of ``names`` (the people talking: nearly every
    turn names them), in order of first use, at most ``MAX_MENTIONS``.

    Two turns that mention the same rare thing ("coconut milk" in one session and in
    another) are linked through it; the same function reads a question, so its own words
    can be left out of the walk (its ranking has them already)."""
    korean = HANGUL_SYLLABLE.search(text)
    tokens = _mention_morphemes()(text) if korean else stemmed_tokens(text)
    skip = {w.casefold() for n in names for w in _WORD.findall(n)}
    skip |= set(stemmed_tokens(" ".join(names)))  # "Caroline" is read as "carolin"
    skip |= {w[1:] for w in skip if len(w) == 3 and HANGUL_SYLLABLE.search(w)}  # 김민준: 민준
    out: dict[str, None] = {}
    for t in tokens:
        if t in STOPWORDS or t in skip or t.isdigit():
            continue
        if len(t) < 3 and not (len(t) == 2 and HANGUL_SYLLABLE.search(t)):
            continue  # "ok", "rd", a single syllable: no thing worth walking through
        out[t] = None
        if len(out) == MAX_MENTIONS:
            break
    return list(out)


class BM25F:
    """BM25F: per-field weighted term frequencies with per-field length normalization.

    A term's contribution to a document's score, ``idf * wtf / (k1 + wtf)``, does not
    depend on the query, so it is computed once into a compressed sparse row matrix (one
    row per term, numpy arrays, in the spirit of bm25s); a query adds up the rows of its
    terms with array operations, never a Python loop per posting.
    """

    def __init__(
        self,
        docs: Sequence[Mapping[str, str]],
        weights: Mapping[str, float],
        k1: float = 1.2,
        b: float = 0.75,
        tokenize: Callable[[str], list[str]] = simple_tokens,
    ) -> None:
        self.k1, self.b, self.weights, self.tokenize = k1, b, dict(weights), tokenize
        fields = list(self.weights)
        self.vocab: dict[str, int] = {}
        # One entry per (term, document, field): built in flat arrays, so a build leaves
        # no per-document Python objects behind for the garbage collector to scan.
        term_ids, doc_ids, field_ids, counts = (array("q"), array("q"), array("b"), array("d"))
        lengths = np.zeros((len(docs), len(fields)), dtype=np.float64)
        for i, d in enumerate(docs):
            for f, name in enumerate(fields):
                c = Counter(tokenize(d.get(name, "") or ""))
                if not c:
                    continue
                lengths[i, f] = c.total()
                for t, n in c.items():
                    term_ids.append(self.vocab.setdefault(t, len(self.vocab)))
                    doc_ids.append(i)
                    field_ids.append(f)
                    counts.append(n)
        self.n = len(docs)
        avg = lengths.mean(axis=0) if self.n else np.ones(len(fields))
        avg[avg == 0] = 1.0
        self.avg = dict(zip(fields, avg.tolist(), strict=True))
        term = np.frombuffer(term_ids, dtype=np.int64) if term_ids else np.empty(0, np.int64)
        doc = np.frombuffer(doc_ids, dtype=np.int64) if doc_ids else np.empty(0, np.int64)
        fld = np.frombuffer(field_ids, dtype=np.int8).astype(np.int64)
        weight = np.array([self.weights[f] for f in fields], dtype=np.float64)
        norm = 1 - b + b * lengths / avg  # per (document, field)
        part = weight[fld] * np.frombuffer(counts, dtype=np.float64) / norm[doc, fld]
        # Sum the fields of each (term, document), ordered by term then document: entries
        # were appended in document order, so a stable sort by term keeps it. (These numpy
        # calls release the GIL: readers keep being served while a snapshot builds.)
        order = np.argsort(term, kind="stable")
        term, doc, part = term[order], doc[order], part[order]
        new = np.ones(len(term), dtype=bool)
        new[1:] = (term[1:] != term[:-1]) | (doc[1:] != doc[:-1])
        starts = np.flatnonzero(new)
        wtf = np.add.reduceat(part, starts) if len(starts) else part
        term = term[starts]
        self._indptr = np.searchsorted(term, np.arange(len(self.vocab) + 1)).astype(np.int64)
        self._df = np.diff(self._indptr)
        self._docs = doc[starts].astype(np.int32)
        idf = np.log1p((self.n - self._df + 0.5) / (self._df + 0.5))
        self._contrib = idf[term] * wtf / (k1 + wtf)
        self._scratch: list[np.ndarray] = []  # list.pop/append are atomic

    def arrays(self) -> dict[str, np.ndarray]:
        """The index as flat arrays (``from_arrays`` reads them back): what a child
        process that built it hands to the serving one."""
        terms = [t.encode("utf-8") for t in self.vocab]  # in row order
        return {
            "indptr": self._indptr,
            "docs": self._docs,
            "contrib": self._contrib,
            "avg": np.array([self.avg[f] for f in self.weights], dtype=np.float64),
            "terms": np.frombuffer(b"".join(terms), dtype=np.uint8),
            "term_ends": np.cumsum([len(t) for t in terms], dtype=np.int64),
        }

    @classmethod
    def from_arrays(
        cls,
        arrays: Mapping[str, np.ndarray],
        n: int,
        weights: Mapping[str, float],
        k1: float = 1.2,
        b: float = 0.75,
        tokenize: Callable[[str], list[str]] = simple_tokens,
    ) -> BM25F:
        self = cls.__new__(cls)
        self.k1, self.b, self.weights, self.tokenize = k1, b, dict(weights), tokenize
        self.n = n
        self.avg = dict(zip(self.weights, np.asarray(arrays["avg"]).tolist(), strict=True))
        self._indptr = arrays["indptr"]
        self._df = np.diff(self._indptr)
        self._docs, self._contrib = arrays["docs"], arrays["contrib"]
        blob = np.ascontiguousarray(arrays["terms"]).data  # a memoryview of the bytes
        self.vocab = {}
        start = 0
        # A loop, not one dict() call: the thread building it lets readers in.
        for row, end in enumerate(np.asarray(arrays["term_ends"]).tolist()):
            self.vocab[str(blob[start:end], "utf-8")] = row
            start = end
        self._scratch = []  # list.pop/append are atomic
        return self

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

    def df(self, term: str) -> int:
        """How many documents contain ``term``."""
        t = self.vocab.get(term)
        return 0 if t is None else int(self._df[t])

    def idf(self, term: str) -> float:
        df = self.df(term)
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def query_terms(self, query: str) -> set[str]:
        return {t for t in self.tokenize(query) if t not in STOPWORDS}

    def _query_rows(self, query: str) -> list[int]:
        """The rows of the query's terms. A term in more than a tenth of a large index adds
        little (idf near 0) but costs a pass over its postings; when the query has rarer
        terms, such terms are skipped."""
        rows = [t for t in (self.vocab.get(w) for w in self.query_terms(query)) if t is not None]
        limit = max(1000, self.n // 10)
        rare = [t for t in rows if self._df[t] <= limit]
        return sorted(rare or rows)

    def matches(self, query: str) -> tuple[np.ndarray, np.ndarray]:
        """Documents sharing a term with the query (ascending ids) and their scores."""
        rows = self._query_rows(query)
        if not rows:
            return np.empty(0, dtype=np.int32), np.empty(0, dtype=np.float64)
        if len(rows) == 1:
            a, z = self._indptr[rows[0]], self._indptr[rows[0] + 1]
            return self._docs[a:z], self._contrib[a:z]
        spans = [(self._indptr[t], self._indptr[t + 1]) for t in rows]
        ids = np.unique(np.concatenate([self._docs[a:z] for a, z in spans]))
        return ids, self._summed(spans, ids)

    def _summed(self, spans: list[tuple[int, int]], ids: np.ndarray) -> np.ndarray:
        """The score of each of ``ids`` (repeats allowed) over the rows ``spans``, summed
        in a zeroed row of the index's length. The rows are pooled, so concurrent queries
        each get their own and the pool holds only as many as ever ran at once."""
        try:
            acc = self._scratch.pop()
        except IndexError:
            acc = np.zeros(self.n, dtype=np.float64)
        try:
            for a, z in spans:
                acc[self._docs[a:z]] += self._contrib[a:z]  # unique ids within a row
            summed: np.ndarray = acc[ids]
            return summed
        finally:
            acc[ids] = 0.0  # clean for the next query, whatever happened
            self._scratch.append(acc)

    def score_docs(self, query: str, docs: np.ndarray) -> np.ndarray:
        """The scores of the documents ``docs`` alone, as ``top`` scores them: each term's
        row (documents ascending) is searched for them, not summed."""
        out = np.zeros(len(docs), dtype=np.float64)
        if not len(docs):
            return out
        for t in self._query_rows(query):
            a, z = int(self._indptr[t]), int(self._indptr[t + 1])
            row = self._docs[a:z]
            at = np.minimum(np.searchsorted(row, docs), len(row) - 1)
            hit = row[at] == docs
            out[hit] += self._contrib[a + at[hit]]
        return out

    def scores(self, query: str) -> dict[int, float]:
        """Scores of every document sharing a term with the query."""
        ids, scores = self.matches(query)
        return dict(zip(ids.tolist(), scores.tolist(), strict=True))

    def top(
        self, query: str, depth: int, order: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """The ``depth`` best (document, score) pairs, best first; ties go to the larger
        ``order`` value (the document id when none is given)."""
        rows = self._query_rows(query)
        if not rows or depth <= 0:
            return []
        spans = [(self._indptr[t], self._indptr[t + 1]) for t in rows]
        ids = np.concatenate([self._docs[a:z] for a, z in spans])
        # A document once per term it shares with the query.
        scores = (
            self._contrib[spans[0][0] : spans[0][1]] if len(rows) == 1 else self._summed(spans, ids)
        )
        # Every contribution is positive (idf > 0, wtf > 0): no zero scores to drop.
        # A document appears at most once per row, so the best depth * rows entries hold
        # the best ``depth`` documents; everything tied with the cut stays.
        head = depth * len(rows)
        if len(ids) > head:
            cut = np.partition(scores, len(scores) - head)[len(scores) - head]
            keep = scores >= cut
            ids, scores = ids[keep], scores[keep]
        ids, first = np.unique(ids, return_index=True)
        scores = scores[first]
        tie = ids if order is None else order[ids]
        best = np.lexsort((-tie, -scores))[:depth]
        return list(zip(ids[best].tolist(), scores[best].tolist(), strict=True))

    def score_fields(self, query: str, fields: Mapping[str, str]) -> float:
        """Score a document outside the index with the index's statistics (fresh reads)."""
        wtf = self._wtf({f: Counter(self.tokenize(fields.get(f, "") or "")) for f in self.weights})
        return sum(
            self.idf(t) * wtf[t] / (self.k1 + wtf[t]) for t in self.query_terms(query) if t in wtf
        )


# Function words that carry no identity or slot: dropped from queries (not from indexes).
STOPWORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "at",
        "in",
        "on",
        "of",
        "to",
        "for",
        "with",
        "and",
        "or",
        "by",
        "from",
        "as",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "how",
        "do",
        "does",
        "did",
        "about",
        "into",
        "my",
        "your",
        "our",
        "their",
        "his",
        "her",
    }
)
