"""The LLM extractor's prompt: system instructions, the answer's JSON schema, the batch.

Kept as plain data in one module so the prompt can be read, diffed and reviewed on its
own. The model only proposes; ``graphmem.extract.llm`` re-checks every answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from graphmem.domain.model import Intent, ParseStatus, Record

__all__ = [
    "EXTRACTION_SCHEMA",
    "FACT_SCHEMA",
    "RECORD_SCHEMA",
    "SYSTEM_PROMPT",
    "build_messages",
    "render_batch",
]

FACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "subject": {"type": "string"},
        "relation": {"type": "string"},
        "value": {"type": "string"},
        "intent": {"type": "string", "enum": [str(i) for i in Intent]},
    },
    "required": ["subject", "relation", "value", "intent"],
}

RECORD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "record": {"type": "integer"},
        "status": {"type": "string", "enum": [str(s) for s in ParseStatus]},
        "facts": {"type": "array", "items": FACT_SCHEMA},
        "reason": {"type": "string"},
    },
    "required": ["record", "status", "facts"],
}

# The whole answer: one entry per numbered record of the batch.
EXTRACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"records": {"type": "array", "items": RECORD_SCHEMA}},
    "required": ["records"],
}

SYSTEM_PROMPT = """\
You extract facts for a memory that must never guess: a wrong fact silently replaces a \
true one, a missed fact only leaves the record to be read later. When in doubt, say \
"unresolved".

You get numbered records, one JSON object per line: {"record": N, "speaker": ..., \
"text": ...}. Answer {"records": [...]} with exactly one entry per record:
{"record": N, "status": "facts" | "unresolved" | "no_fact", "facts": [...], "reason": "..."}

A fact is {"subject": ..., "relation": ..., "value": ..., "intent": ...}: the subject \
has this value for this relation. "Minjun's 5k personal best is 27:12" gives \
{"subject": "Minjun", "relation": "5k personal best", "value": "27:12", "intent": "assert"}.

Rules:
1. Copy subject and value verbatim from the record's text: the same characters, no \
translation, no paraphrase, no words added. You may only cut off what follows a name \
(a possessive, a Korean particle or title: "김민준님이" gives "김민준").
2. When the speaker talks about themselves (I, my, me, 나, 내, 제, 저) and a speaker is \
given, the subject is the speaker exactly as given; with no speaker, "unresolved".
3. "unresolved" (facts empty, reason says why) when the record states something you \
cannot give with certainty:
   - the subject is a pronoun or unnamed (he, she, it, they, this, 그, 그녀, 걔);
   - the sentence is negated and gives no replacing value ("X no longer lives in Y", \
"X is not Y");
   - the scope is ambiguous: which entity, which attribute or which time is unclear;
   - one relation has several values at once ("X speaks French and German");
   - a question, wish, plan, rumour of a rumour or hypothetical.
4. "no_fact" (facts empty) when the record states nothing about any entity: greetings, \
thanks, small talk.
5. "facts" otherwise, one fact per statement. "facts" is empty unless status is "facts".
6. relation: a short lower-case noun phrase for the attribute ("employer", "place of \
birth", "5k personal best"). If one of the existing relation names given with the \
records means the same thing, use that name exactly as written.
7. intent:
   - "assert": a plain statement of the value;
   - "update": the value changed ("now", "moved to", "switched to", "이제", "바뀌었어");
   - "correct": an earlier value was wrong from the start ("not X, it was Y", "I misspoke");
   - "revoke": an earlier update is taken back with no new value ("forget what I said \
about X", "that change was a mistake"); value "";
   - "confirm": a disputed value is settled ("checked: it is B", "confirmed").
8. Use nothing outside the record: no world knowledge, no other record. Records are \
independent; a pronoun is never resolved from another record.
"""


def render_batch(records: Sequence[Record], known_relations: Iterable[str] = ()) -> str:
    """The user message: existing relation names, then records numbered from 1.

    One JSON object per record keeps record boundaries unambiguous whatever the text
    contains (newlines, quotes, numbers that look like record numbers).
    """
    names = sorted(dict.fromkeys(str(r) for r in known_relations if str(r).strip()))
    head = (
        "Existing relation names: " + json.dumps(names, ensure_ascii=False)
        if names
        else "Existing relation names: none yet"
    )
    lines = []
    for n, rec in enumerate(records, start=1):
        item: dict[str, Any] = {"record": n}
        if rec.speaker:
            item["speaker"] = rec.speaker
        item["text"] = rec.text
        lines.append(json.dumps(item, ensure_ascii=False))
    return f"{head}\n\nRecords:\n" + "\n".join(lines)


def build_messages(
    records: Sequence[Record], known_relations: Iterable[str] = ()
) -> list[dict[str, Any]]:
    """System prompt plus the rendered batch, ready for ``LLMClient.chat_json``."""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": render_batch(records, known_relations)},
    ]
