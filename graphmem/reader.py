"""The optional reader: one LLM call over the evidence (MemoryAgentBench's prompt).

The prompt is FactConsolidation's own: numbered facts, a larger number is newer, answer
from the pool, not from world knowledge. Scoring is MemoryAgentBench's normalized
substring match on the first line of the answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from graphmem.domain.evidence import Evidence, answer_in_text
from graphmem.llm.base import LLMClient

__all__ = ["READER_PROMPT", "Answer", "read", "score"]

READER_PROMPT = (
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


@dataclass(frozen=True)
class Answer:
    text: str
    evidence: Evidence

    @property
    def first_line(self) -> str:
        lines = [ln.strip() for ln in self.text.strip().splitlines() if ln.strip()]
        return lines[0] if lines else ""


def read(question: str, evidence: Evidence, client: LLMClient,
         timeout: float | None = None) -> Answer:
    messages = [
        {"role": "system", "content": evidence.text},
        {"role": "user", "content": READER_PROMPT.format(question=question)},
    ]
    return Answer(client.chat(messages, timeout=timeout), evidence)


def score(answer: Answer, golds: Iterable[str]) -> bool:
    """MemoryAgentBench: a normalized gold is a substring of the answer's first line."""
    return answer_in_text(golds, answer.first_line)
