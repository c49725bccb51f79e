"""Soft key identity (P-Mem): merge relation names that mean the same attribute.

An embedding proposes (cosine >= 0.72 to the nearest known name), a key-only check
confirms: the checker sees the two attribute names and nothing else. Showing values
makes the checker merge the wrong pairs (P-Mem: 2 of 135 accepted with values, 37 of 133
with keys only), so values never reach it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from graphmem.domain.keys import RelationRegistry, normalize_relation

__all__ = ["KeyOnlyCheck", "SoftKeyMatcher", "cosine"]

# A key-only check: (new relation name, known relation name) -> same attribute?
KeyOnlyCheck = Callable[[str, str], bool]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(x * x for x in b))
    if not na or not nb:
        return 0.0
    return sum(x * y for x, y in zip(a, b, strict=True)) / (na * nb)


@dataclass
class SoftKeyMatcher:
    """Aligns an unseen relation name to a known one when both checks agree."""

    embed: Callable[[list[str]], list[list[float]]]
    confirm: KeyOnlyCheck
    threshold: float = 0.72
    _known: dict[str, list[float]] = field(default_factory=dict)
    decisions: list[dict[str, object]] = field(default_factory=list)

    def learn(self, names: Sequence[str]) -> None:
        new = [n for n in dict.fromkeys(map(normalize_relation, names)) if n not in self._known]
        if new:
            for n, v in zip(new, self.embed([n.replace("_", " ") for n in new]), strict=True):
                self._known[n] = v

    def align(self, relation: str, registry: RelationRegistry) -> str:
        """The relation to key on: a known synonym when proposed and confirmed, else itself.
        A confirmed merge is recorded in the registry, so it is decided once."""
        rel = registry.align(relation)
        if rel in self._known or not self._known:
            self.learn([rel])
            return rel
        (vec,) = self.embed([rel.replace("_", " ")])
        best, score = max(
            ((k, cosine(vec, v)) for k, v in self._known.items()), key=lambda kv: kv[1]
        )
        decision: dict[str, object] = {"new": rel, "nearest": best, "cosine": round(score, 3)}
        if score >= self.threshold and self.confirm(rel, best):
            registry.synonyms[rel] = best
            decision["merged"] = True
            self.decisions.append(decision)
            return best
        decision["merged"] = False
        self.decisions.append(decision)
        self._known[rel] = vec
        return rel


KEY_CHECK_PROMPT = (
    "Two attribute names from a personal memory. Do they name the same attribute of the "
    "same kind of thing, so that a value of one replaces a value of the other? Answer SAME "
    "or DIFFERENT.\nA: {a}\nB: {b}"
)
KEY_CHECK_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string", "enum": ["SAME", "DIFFERENT"]}},
    "required": ["answer"],
}


class JsonChat(Protocol):
    """What the key check asks of a chat model (``graphmem.llm.LLMClient`` fits)."""

    def chat_json(
        self,
        messages: list[dict[str, Any]],
        schema: dict[str, Any],
        *,
        timeout: float | None = None,
    ) -> Mapping[str, object]: ...


def llm_key_check(client: JsonChat, timeout: float | None = None) -> KeyOnlyCheck:
    """A key-only check backed by an LLM: it sees the two names, never a value."""

    def check(a: str, b: str) -> bool:
        out = client.chat_json(
            [
                {
                    "role": "user",
                    "content": KEY_CHECK_PROMPT.format(
                        a=a.replace("_", " "), b=b.replace("_", " ")
                    ),
                }
            ],
            KEY_CHECK_SCHEMA,
            timeout=timeout,
        )
        return out.get("answer") == "SAME"

    return check
