"""The answer head: whether one of a person's current facts answers a request.

The reading gate decides by words, answer type and a floor on meaning; where the words
are partial ("what colour are the cabinets" and the cabinets' delivery date) or absent,
it serves lines that do not answer and leaves answerable requests empty. The head is a
logistic model over the request's and the fact's multilingual-e5-small vectors (their
cosines and their element-wise products, so it learns which directions of meaning must
agree), the words found, the answer type and the fact's rank among all the person's
facts and among those it may serve — one model per language, fitted on the development
splits of the blind block requests and cross-validated by round (``graphmem-bench
fit-answer-head``). It only corrects the gate: a fact whose relation and record cover
every word of the request's topic is served without it (and without an embedding); the
gate's best line by partial words or by meaning stands when the head gives it at least
``veto``; otherwise (or when the gate found none) the head's best eligible fact is
served when the head gives it at least ``serve``, and nothing when not. Eligible facts
are always of the asked type or named by the request's words, of the person asked
about, and not of another kind: the head never decides emptiness from closeness alone.

Plain text (nothing keyed about the person) has a head of its own, fitted the same way on
the development rounds written as plain text: its rows are the person's raw records that state
a value of the asked type, the record's text standing in for a fact's line, with what a
raw record tells besides (the newest? said by the person? naming them? saying it changes
something?). There the head picks: the record it reads the answer in, from ``serve``,
or none — unless words covering the whole topic chose one.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = [
    "AnswerHead",
    "HeadSample",
    "HeadWeights",
    "bundled_head",
    "bundled_plain_head",
    "features",
    "keyed_features",
    "keyed_pick",
    "load_head",
    "observing",
    "plain_features",
    "plain_pick",
    "save_head",
    "scalar_columns",
]

# Changes whenever ``keyed_features`` (or ``features`` under it) changes: a saved head
# of another version is not loaded.
FEATURES_VERSION = 2
# ... and whenever ``plain_features`` changes, for the plain-text head.
PLAIN_FEATURES_VERSION = 1
# The scalar features ahead of the vector products (their names, for the fit's report).
SCALAR_FEATURES = (
    "cos_line",
    "cos_record",
    "cos",
    "below_nearest",
    "nearest",
    "words_found",
    "typed",
    "coverage",
    "korean",
    "asks_a_type",
    "korean_cos",
    "words_coverage",
)
BUNDLED_PATH = Path(__file__).with_name("data") / "answer_head.npz"
BUNDLED_PLAIN_PATH = Path(__file__).with_name("data") / "plain_head.npz"


@dataclass(frozen=True)
class HeadWeights:
    """One language's logistic model and its two decision points."""

    weights: np.ndarray
    bias: float
    mean: np.ndarray
    scale: np.ndarray
    veto: float
    serve: float

    def probability(self, x: np.ndarray) -> np.ndarray:
        z = ((x - self.mean) / self.scale) @ self.weights + self.bias
        return np.asarray(1.0 / (1.0 + np.exp(-z)))


@dataclass(frozen=True)
class AnswerHead:
    """The head for one embedding model: an English and a Korean model."""

    model: str
    english: HeadWeights
    korean: HeadWeights

    def for_request(self, korean: bool) -> HeadWeights:
        return self.korean if korean else self.english


def features(
    query: np.ndarray,
    lines: np.ndarray,
    records: np.ndarray,
    words_found: Sequence[bool],
    typed: Sequence[bool],
    coverage: Sequence[float],
    korean: bool,
    asks_a_type: bool,
) -> np.ndarray:
    """One row per fact: ``lines`` and ``records`` are the vectors of each fact's
    "subject relation: value" line and of its record's text (normalised), ``query``
    the request's."""
    cos_line, cos_record = lines @ query, records @ query
    cos = np.maximum(cos_line, cos_record)
    nearest = np.zeros_like(cos)
    top = float(cos.max()) if len(cos) else 0.0
    if len(cos):
        nearest[int(cos.argmax())] = 1.0
    ko = 1.0 if korean else 0.0
    found = np.asarray(words_found, dtype=np.float32)
    cov = np.asarray(coverage, dtype=np.float32)
    scalars = np.stack(
        [
            cos_line,
            cos_record,
            cos,
            top - cos,
            nearest,
            found,
            np.asarray(typed, dtype=np.float32),
            cov,
            np.full_like(cos, ko),
            np.full_like(cos, 1.0 if asks_a_type else 0.0),
            ko * cos,
            found * cov,
        ],
        axis=1,
    )
    return np.concatenate([scalars, lines * query, records * query], axis=1).astype(np.float32)


def _after_scalars(base: np.ndarray, extras: np.ndarray) -> np.ndarray:
    """``features`` rows with a head's own columns between the scalars and the vector
    products: the layout ``load_head`` reads (the scalars first, two products last)."""
    scalars = len(SCALAR_FEATURES)
    return np.concatenate([base[:, :scalars], extras, base[:, scalars:]], axis=1).astype(np.float32)


KEYED_FEATURES = (
    "eligible",
    "first_eligible",
    "eligible_gap",
    "only_eligible",
)


def keyed_features(
    query: np.ndarray,
    lines: np.ndarray,
    records: np.ndarray,
    words_found: Sequence[bool],
    typed: Sequence[bool],
    coverage: Sequence[float],
    korean: bool,
    asks_a_type: bool,
    eligible: Sequence[bool] | np.ndarray,
) -> np.ndarray:
    """The keyed head's rows: ``features``, then where each fact stands among the facts
    the head may serve (``eligible``: of the asked type or named by the words, not of
    another kind) — how many there are, whether it is the nearest of them in meaning, how
    far it is ahead of the next (or behind the nearest), whether it is the only one. "What
    is Kris charging?" when Kris has one fee is another question than when Kris has
    three."""
    base = features(query, lines, records, words_found, typed, coverage, korean, asks_a_type)
    cos = base[:, SCALAR_FEATURES.index("cos")]
    mask = np.asarray(eligible, dtype=bool)
    count = int(mask.sum())
    among = np.where(mask, cos, -1.0)
    best = float(among.max()) if count else 0.0
    second = float(np.partition(among, -2)[-2]) if count > 1 else 0.0
    first = mask & (among >= best - 1e-9)
    extras = np.stack(
        [
            np.full(len(cos), np.log1p(count)),
            first,
            np.where(first, cos - max(second, 0.0), cos - best),
            np.full(len(cos), 1.0 if count == 1 else 0.0),
        ],
        axis=1,
    )
    return _after_scalars(base, extras)


PLAIN_FEATURES = (
    "newest",
    "said_by_them",
    "names_them",
    "states_a_change",
    "candidates",
)


def scalar_columns(plain: bool = False) -> int:
    """How many scalar columns a head's rows begin with (the shared scalars, then the
    keyed or plain-text head's own) before the two vector products."""
    return len(SCALAR_FEATURES) + len(PLAIN_FEATURES if plain else KEYED_FEATURES)


def plain_features(
    query: np.ndarray,
    records: np.ndarray,
    words_found: Sequence[bool],
    coverage: Sequence[float],
    korean: bool,
    asks_a_type: bool,
    newest: Sequence[bool],
    said_by_them: Sequence[bool],
    names_them: Sequence[bool],
    states_change: Sequence[bool],
) -> np.ndarray:
    """One row per raw record of the person's that states a value of the asked type:
    ``features`` with the record's text standing in for a line, then whether it is the
    newest of them, whether the person said it, whether it names them, whether it says
    it changes something, and how many there are."""
    n = len(records)
    base = features(query, records, records, words_found, [True] * n, coverage, korean, asks_a_type)
    extras = np.stack(
        [
            np.asarray(newest, dtype=np.float32),
            np.asarray(said_by_them, dtype=np.float32),
            np.asarray(names_them, dtype=np.float32),
            np.asarray(states_change, dtype=np.float32),
            np.full(n, np.log1p(n), dtype=np.float32),
        ],
        axis=1,
    )
    return _after_scalars(base, extras)


def keyed_pick(
    p: np.ndarray,
    top: int,
    by_all_words: bool,
    eligible: np.ndarray,
    veto: float,
    serve: float,
) -> int | str | None:
    """The keyed head's decision over its facts' probabilities ``p``, the gate's best fact
    ``top`` (-1: none): None leaves the gate's decision (whole-topic words chose, or the
    head gives the gate's fact at least ``veto``), an index is the fact to serve instead
    (the head's best eligible fact, from ``serve``), "none" serves nothing."""
    if top >= 0 and (by_all_words or p[top] >= veto):
        return None
    best = int(np.where(eligible, p, -1.0).argmax()) if eligible.any() else -1
    if best >= 0 and p[best] >= serve:
        return None if best == top else best
    return "none" if top >= 0 else None


def plain_pick(p: np.ndarray, top: int, by_all_words: bool, serve: float) -> int | str | None:
    """The plain-text head's decision over its records' probabilities ``p``, the gate's
    best record ``top`` (-1: none): None leaves the gate's decision (whole-topic words
    chose, or the head agrees), an index is the record to serve instead, "none" serves
    nothing (no record reaches ``serve``): the keyed pick with no veto, every record
    eligible."""
    return keyed_pick(p, top, by_all_words, np.ones(len(p), dtype=bool), math.inf, serve)


@dataclass(frozen=True)
class HeadSample:
    """What the gate saw for one request, before the head: for fitting it."""

    request: str
    korean: bool
    features: np.ndarray
    eligible: np.ndarray
    record_ids: tuple[str, ...]
    # The gate's best line before the head (None: empty), and whether whole-topic words
    # chose it (the head leaves those alone).
    top: str | None
    top_by_all_words: bool
    # Rows are raw records (plain text), not facts.
    plain: bool = False


_observers: list[Callable[[HeadSample], None]] = []
_observers_lock = threading.Lock()


@contextmanager
def observing(callback: Callable[[HeadSample], None]) -> Iterator[None]:
    """Calls ``callback`` with every keyed and plain-text decision's sample while inside
    (to fit the heads; blocks embed every request meanwhile)."""
    with _observers_lock:
        _observers.append(callback)
    try:
        yield
    finally:
        with _observers_lock:
            _observers.remove(callback)


def observed() -> bool:
    return bool(_observers)


def observe(sample: HeadSample) -> None:
    with _observers_lock:
        callbacks = list(_observers)
    for callback in callbacks:
        callback(sample)


def save_head(head: AnswerHead, path: Path, plain: bool = False) -> None:
    """Save ``head``: the keyed one, or with ``plain`` the plain-text one (each records
    its kind and the version of its features)."""
    arrays: dict[str, np.ndarray] = {
        "version": np.array(PLAIN_FEATURES_VERSION if plain else FEATURES_VERSION),
        "kind": np.array("plain" if plain else "keyed"),
        "model": np.array(head.model),
    }
    for lang, hw in (("en", head.english), ("ko", head.korean)):
        arrays[f"{lang}_weights"] = hw.weights.astype(np.float32)
        arrays[f"{lang}_bias"] = np.array(hw.bias, dtype=np.float32)
        arrays[f"{lang}_mean"] = hw.mean.astype(np.float32)
        arrays[f"{lang}_scale"] = hw.scale.astype(np.float32)
        arrays[f"{lang}_points"] = np.array([hw.veto, hw.serve], dtype=np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        np.savez_compressed(f, **arrays)  # type: ignore[arg-type]


def load_head(path: Path, plain: bool = False) -> AnswerHead | None:
    """The keyed head saved at ``path`` (with ``plain``: the plain-text one); None when
    there is none, or it is of the other kind, or fitted on other features."""
    if not path.is_file():
        return None
    with np.load(path) as z:
        kind = str(z["kind"]) if "kind" in z.files else "keyed"
        version = PLAIN_FEATURES_VERSION if plain else FEATURES_VERSION
        if kind != ("plain" if plain else "keyed") or int(z["version"]) != version:
            return None
        scalars = scalar_columns(plain)

        def one(lang: str) -> HeadWeights | None:
            weights = z[f"{lang}_weights"]
            # The scalars, then two products of a vector: anything else is no head of ours.
            if weights.ndim != 1 or weights.shape[0] <= scalars or (weights.shape[0] - scalars) % 2:
                return None
            veto, serve = (float(x) for x in z[f"{lang}_points"])
            return HeadWeights(
                weights,
                float(z[f"{lang}_bias"]),
                z[f"{lang}_mean"],
                z[f"{lang}_scale"],
                veto,
                serve,
            )

        english, korean = one("en"), one("ko")
        if english is None or korean is None:
            return None
        return AnswerHead(str(z["model"]), english, korean)


@lru_cache(maxsize=1)
def bundled_head() -> AnswerHead | None:
    """The keyed head shipped with graphmem (for the bundled e5), loaded once."""
    return load_head(BUNDLED_PATH)


@lru_cache(maxsize=1)
def bundled_plain_head() -> AnswerHead | None:
    """The plain-text head shipped with graphmem (for the bundled e5), loaded once."""
    return load_head(BUNDLED_PLAIN_PATH, plain=True)
