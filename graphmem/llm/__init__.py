"""LLM backends behind two small protocols: structured chat and embeddings.

The rest of graphmem depends only on ``LLMClient`` and ``Embedder``; ``OllamaClient`` is
the default implementation and ``graphmem.llm.testserver`` fakes Ollama over real HTTP.
"""

from __future__ import annotations

from graphmem.llm.base import Embedder, LLMClient
from graphmem.llm.ollama import DEFAULT_EMBED_MODEL, DEFAULT_MODEL, OllamaClient, validate_json

__all__ = [
    "DEFAULT_EMBED_MODEL",
    "DEFAULT_MODEL",
    "Embedder",
    "LLMClient",
    "OllamaClient",
    "validate_json",
]
