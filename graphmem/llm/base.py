"""The two things graphmem asks of a language model, as protocols.

Extractors, readers and soft key identity take these instead of a concrete client, so a
test (or another backend) can stand in for Ollama without touching them.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["Embedder", "LLMClient", "Message"]

# A chat message as Ollama (and most chat APIs) take it: {"role": ..., "content": ...}.
Message = dict[str, Any]


@runtime_checkable
class LLMClient(Protocol):
    """A chat model. Every failure is raised as ``graphmem.LLMError``, never returned."""

    def chat_json(
        self, messages: list[Message], schema: dict[str, Any], *, timeout: float | None = None
    ) -> dict[str, Any]:
        """One answer constrained to ``schema`` (a JSON schema), parsed and checked."""
        ...

    def chat(self, messages: list[Message], *, timeout: float | None = None) -> str:
        """One free-text answer (the reader's)."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Texts to vectors, one per text, in order (soft key identity, dense reads)."""

    def embed(self, texts: list[str]) -> list[list[float]]: ...
