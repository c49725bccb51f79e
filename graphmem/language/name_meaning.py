"""Names by meaning: a Hangul span to the Latin-script name it translates.

Korean often translates a name instead of sounding it out: "반지의 제왕" for The Lord of
the Rings, "세계보건기구" for the World Health Organization. A multilingual sentence
embedder (multilingual-e5-small by default) puts both in one space, but by small margins
and with confusions ("폭풍의 언덕", Wuthering Heights, near Gone with the Wind), so meaning
only proposes candidates. The sound of the span's words, word by word, and the lead over
the runner-up then decide, through a small logistic model (``MEANING_WEIGHTS``) fitted on
the development splits of Hangul renderings (``graphmem-bench hangul-names --fit``). A
link is made only when one candidate is clearly best.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = [
    "MEANING_FEATURES",
    "MEANING_WEIGHTS",
    "NameMeaning",
    "NameVectors",
    "link_probability",
]

Vector = npt.NDArray[np.float32]

# Candidates by meaning (nearest names) and by sound that are compared per span.
MEANING_CANDIDATES = 20
# The features of one candidate, in order (``graphmem-bench hangul-names --fit``).
MEANING_FEATURES = (
    "cosine",  # the span's and the name's vectors, minus 0.85 (e5's scores sit near it)
    "lead",  # the cosine minus the best other candidate's
    "sound",  # the whole span's sound score for the name (0 when not a sound candidate)
    "name_words",  # share of the name's words the span renders by sound or spelling
    "span_words",  # share of the span's words that render one of the name's
    "both_words",  # name_words * span_words
    "sounds_alike",  # 1 when the name is a sound candidate at all
)
# Logistic weights over MEANING_FEATURES and the bias, fitted on the development splits
# (tests/fixtures/hangul_names, hangul_names_round2); the held-out split never saw them.
MEANING_WEIGHTS: tuple[float, ...] = (20.6682, 22.7520, 1.5000, 1.1398, 0.9213, 1.9892, 0.2240)
MEANING_BIAS = -4.1391
# A link needs this probability, and a lead of half of it over the runner-up: the lowest
# threshold whose added links were all right in a 5-fold cross-validation on the
# development splits (15 of 15 at 0.9; 28 of 32 at 0.8). Precision comes first.
MEANING_LINK_P = 0.9


class NameVectors:
    """The namespace's entity names with their vectors (normalised rows), growing as
    names are embedded; thread-safe."""

    def __init__(self) -> None:
        self._names: list[str] = []
        self._rows: list[Vector] = []
        self._index: dict[str, int] = {}
        self._matrix: Vector | None = None
        self._lock = threading.Lock()

    def add(self, names: Sequence[str], vectors: npt.ArrayLike) -> None:
        if not names:
            return
        rows = np.asarray(vectors, dtype=np.float32)
        if rows.ndim != 2 or len(rows) != len(names):
            raise ValueError("one vector per name is needed")
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        rows = (rows / np.where(norms == 0, 1.0, norms)).astype(np.float32)
        with self._lock:
            for name, row in zip(names, rows, strict=True):
                if name in self._index:
                    self._rows[self._index[name]] = row
                else:
                    self._index[name] = len(self._names)
                    self._names.append(name)
                    self._rows.append(row)
            self._matrix = None

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def matrix(self) -> Vector:
        """The vectors, one row per name in the order they were added."""
        with self._lock:
            if self._matrix is None:
                self._matrix = (
                    np.stack(self._rows) if self._rows else np.zeros((0, 1), dtype=np.float32)
                )
            return self._matrix

    def similarities(self, query: Vector) -> tuple[list[str], Vector]:
        """Every name with its cosine to ``query`` (a normalised vector)."""
        with self._lock:
            names = self._names
        matrix = self.matrix()
        if not names:
            return [], np.zeros(0, dtype=np.float32)
        return names[: len(matrix)], matrix @ query


class NameMeaning(Protocol):
    """What the linker needs of meaning: the names' vectors and a span's vector (None
    when there is none to give: no embedder, or no name embedded yet)."""

    @property
    def vectors(self) -> NameVectors: ...

    def query(self, text: str) -> Vector | None: ...


def link_probability(features: Iterable[float]) -> float:
    """The fitted model's probability that a candidate with these features is right."""
    z = MEANING_BIAS + sum(w * x for w, x in zip(MEANING_WEIGHTS, features, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def nearest(names: list[str], sims: Vector, k: int) -> list[int]:
    """The positions of the ``k`` highest similarities, best first."""
    if len(sims) <= k:
        return [int(i) for i in np.argsort(-sims)]
    top = np.argpartition(-sims, k)[:k]
    return [int(i) for i in top[np.argsort(-sims[top])]]


_GENITIVE = re.compile(r"(?<=..)(의|가의|들)$")


def span_words(span: str) -> list[str]:
    """The span's words as a name has them: a genitive 의 and a plural 들 dropped
    ("카라마조프가의 형제들" → 카라마조프, 형제)."""
    return [w for w in (_GENITIVE.sub("", t) for t in span.split()) if w]
