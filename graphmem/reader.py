"""The optional reader: one LLM call that answers a question from the evidence.

The prompt is written for any memory: the evidence lists original records, numbered in
the order memory received them (a larger number is newer); when records disagree, the
newer one holds; the answer comes from the records, not from the model's own knowledge.
"""

from __future__ import annotations

from graphmem.domain.evidence import Evidence
from graphmem.llm.base import LLMClient
from graphmem.results import Answer

__all__ = ["READER_PROMPT", "Answer", "read"]

READER_PROMPT = (
    "You answer questions from a memory. The records above are what the memory holds, "
    "numbered in the order they were received: a larger number is newer. When records "
    "disagree, the newer record holds. Answer only from these records, not from what you "
    "know about the world; if they do not contain the answer, say you do not know. Give a "
    "short answer on the first line, without explanation.\n\nQuestion: {question}\nAnswer:"
)


def read(
    question: str,
    evidence: Evidence,
    client: LLMClient,
    timeout: float | None = None,
    prompt: str = READER_PROMPT,
) -> Answer:
    """One reader call over ``evidence``; ``prompt`` has a ``{question}`` slot."""
    messages = [
        {"role": "system", "content": evidence.text},
        {"role": "user", "content": prompt.format(question=question)},
    ]
    return Answer(client.chat(messages, timeout=timeout), evidence)
