"""Okapi BM25 (and BM25F over weighted fields) with a small inverted index.

Plain Python: the indexes here hold at most a namespace's current facts.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence

__all__ = ["BM25", "BM25F", "simple_tokens"]

_WORD = re.compile(r"[\w]+", re.UNICODE)


def simple_tokens(text: str) -> list[str]:
    """Lower-cased word tokens; Hangul runs also give character bigrams (no analyzer)."""
    out = []
    for w in _WORD.findall(text.casefold()):
        out.append(w)
        if any("\uac00" <= ch <= "\ud7a3" for ch in w) and len(w) > 2:
            out.extend(w[i : i + 2] for i in range(len(w) - 1))
    return out


class BM25:
    """BM25 over documents given as texts; ``search`` returns (doc index, score)."""

    def __init__(self, docs: Sequence[str], k1: float = 1.2, b: float = 0.75,
                 tokenize: Callable[[str], list[str]] = simple_tokens) -> None:
        self.k1, self.b, self.tokenize = k1, b, tokenize
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.lengths: list[int] = []
        for i, doc in enumerate(docs):
            tf = Counter(tokenize(doc))
            self.lengths.append(sum(tf.values()))
            for term, n in tf.items():
                self.postings[term].append((i, n))
        self.n = len(self.lengths)
        self.avgdl = (sum(self.lengths) / self.n) if self.n else 1.0

    def idf(self, term: str) -> float:
        df = len(self.postings.get(term, ()))
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def scores(self, query: str) -> dict[int, float]:
        acc: dict[int, float] = defaultdict(float)
        for term in set(self.tokenize(query)):
            idf = self.idf(term)
            for doc, tf in self.postings.get(term, ()):
                norm = self.k1 * (1 - self.b + self.b * self.lengths[doc] / self.avgdl)
                acc[doc] += idf * tf * (self.k1 + 1) / (tf + norm)
        return acc

    def search(self, query: str, k: int | None = None) -> list[tuple[int, float]]:
        ranked = sorted(self.scores(query).items(), key=lambda x: (-x[1], x[0]))
        return ranked[:k] if k is not None else ranked


class BM25F:
    """BM25F: per-field weighted term frequencies with per-field length normalization."""

    def __init__(self, docs: Sequence[Mapping[str, str]], weights: Mapping[str, float],
                 k1: float = 1.2, b: float = 0.75,
                 tokenize: Callable[[str], list[str]] = simple_tokens) -> None:
        self.k1, self.b, self.weights, self.tokenize = k1, b, dict(weights), tokenize
        self.field_tf: list[dict[str, Counter[str]]] = []
        self.field_len: dict[str, list[int]] = {f: [] for f in weights}
        df: Counter[str] = Counter()
        for doc in docs:
            per = {f: Counter(tokenize(doc.get(f, "") or "")) for f in weights}
            self.field_tf.append(per)
            for f in weights:
                self.field_len[f].append(sum(per[f].values()))
            df.update({t for c in per.values() for t in c})
        self.n = len(docs)
        self.df = df
        self.avg = {f: (sum(v) / self.n if self.n else 1.0) or 1.0
                    for f, v in self.field_len.items()}
        self.index: dict[str, set[int]] = defaultdict(set)
        for i, per in enumerate(self.field_tf):
            for c in per.values():
                for t in c:
                    self.index[t].add(i)

    def scores(self, query: str, candidates: Iterable[int] | None = None) -> dict[int, float]:
        terms = set(self.tokenize(query))
        docs = set().union(*(self.index.get(t, set()) for t in terms)) if terms else set()
        if candidates is not None:
            docs &= set(candidates)
        out: dict[int, float] = {}
        for d in docs:
            s = 0.0
            for t in terms:
                wtf = 0.0
                for f, w in self.weights.items():
                    tf = self.field_tf[d][f].get(t, 0)
                    if tf:
                        norm = 1 - self.b + self.b * self.field_len[f][d] / self.avg[f]
                        wtf += w * tf / norm
                if wtf:
                    idf = math.log(1 + (self.n - self.df[t] + 0.5) / (self.df[t] + 0.5))
                    s += idf * wtf / (self.k1 + wtf)
            out[d] = s
        return out

    def score_fields(self, query: str, fields: Mapping[str, str]) -> float:
        """Score a document outside the index with the index's statistics (fresh reads)."""
        terms = set(self.tokenize(query))
        tf = {f: Counter(self.tokenize(fields.get(f, "") or "")) for f in self.weights}
        lens = {f: sum(c.values()) for f, c in tf.items()}
        s = 0.0
        for t in terms:
            wtf = 0.0
            for f, w in self.weights.items():
                n = tf[f].get(t, 0)
                if n:
                    wtf += w * n / (1 - self.b + self.b * lens[f] / self.avg[f])
            if wtf:
                df = self.df.get(t, 0)
                idf = math.log(1 + (self.n - df + 0.5) / (df + 0.5))
                s += idf * wtf / (self.k1 + wtf)
        return s

