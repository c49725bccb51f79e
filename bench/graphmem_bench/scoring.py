"""MemoryAgentBench's scoring and reader prompt, and the percentiles every runner reports."""

from __future__ import annotations

import math
import re
import string
from collections.abc import Iterable, Sequence

from graphmem.results import Answer

__all__ = [
    "FACTCONSOLIDATION_PROMPT",
    "answer_in_text",
    "normalize_answer",
    "percentile",
    "score_answer",
]

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)


def normalize_answer(s: str) -> str:
    """MemoryAgentBench's normalization: lower, no punctuation, no articles, one space."""
    s = s.lower().translate(_PUNCT)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


def answer_in_text(golds: Iterable[str], text: str) -> bool:
    """Is any normalized gold a substring of the normalized text?"""
    norm = normalize_answer(text)
    return any(g and g in norm for g in map(normalize_answer, golds))


def score_answer(answer: Answer, golds: Iterable[str]) -> bool:
    """MemoryAgentBench: a normalized gold is a substring of the answer's first line."""
    return answer_in_text(golds, answer.first_line)


# FactConsolidation's own reader prompt (pass it to ``graphmem.reader.read(prompt=...)``).
FACTCONSOLIDATION_PROMPT = (
    "Pretend you are a knowledge management system. Each fact in the knowledge pool is "
    "provided with a serial number at the beginning, and the newer fact has larger serial "
    "number. \n You need to solve the conflicts of facts in the knowledge pool by finding "
    "the newest fact with larger serial number. You need to answer a question based on "
    "this rule. You should give a very concise answer without saying other words for the "
    "question **only** from the knowledge pool you have memorized rather than the real "
    "facts in real world. \n\nFor example:\n\n [Knowledge Pool] \n\n Question: Based on the "
    "provided Knowledge Pool, what is the name of the current president of Russia? \n"
    "Answer: Donald Trump \n\n Now Answer the Question: Based on the provided Knowledge "
    "Pool, {question} \nAnswer:"
)


def percentile(values: Sequence[float], q: float) -> float:
    """The value at fraction ``q`` (0-1) of the sorted values (the nearest rank at or
    above ``q * n``); NaN for no values."""
    if not values:
        return math.nan
    xs = sorted(values)
    return xs[min(len(xs) - 1, int(q * len(xs)))]
