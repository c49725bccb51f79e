"""The LLM extractor: batches of records to facts through a JSON-schema constrained model.

The model only proposes. Every answer is re-checked here, because a wrong fact silently
replaces a true value while an unresolved record is merely read raw later:

- subject and value must occur verbatim in the record (case-insensitive, whitespace
  normalized); a fact that fails is dropped as hallucinated, and a record left with no
  fact becomes ``unresolved``;
- a record number outside the batch is ignored; a record the model skipped, or answered
  twice differently, is ``unresolved``;
- a failed call (timeout, malformed JSON, HTTP error) makes every record of the batch
  ``unresolved`` with the error as reason: the batch is stored raw, never lost;
- relation names are aligned to known ones (and their synonyms) so one attribute is one key.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from graphmem._errors import InvalidInputError, LLMError
from graphmem.domain.keys import RelationRegistry, normalize_relation
from graphmem.domain.model import Fact, Intent, ParseStatus, Record
from graphmem.extract.base import Extraction
from graphmem.extract.prompts import EXTRACTION_SCHEMA, RECORD_SCHEMA, build_messages
from graphmem.llm.base import LLMClient
from graphmem.llm.ollama import validate_json

__all__ = ["LLMExtractor", "occurs_verbatim"]

_SPACE = re.compile(r"\s+")


def _norm_text(text: str) -> str:
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def occurs_verbatim(needle: str, haystack: str) -> bool:
    """Whether ``needle`` is in ``haystack`` ignoring case and runs of whitespace only."""
    n = _norm_text(needle)
    return bool(n) and n in _norm_text(haystack)


class LLMExtractor:
    """An ``Extractor`` backed by any ``LLMClient``; ``extract_many`` batches the calls.

    ``known_relations`` (and a ``registry``'s declared names and synonyms) are offered to
    the model and used to align what it returns. With ``learn_relations`` the relations
    it produces are offered to later batches too, so a run settles on one name per
    attribute. With ``speaker_as_subject`` a first-person fact may name the record's
    speaker, who is part of the record even when the text says "I".
    """

    name = "llm"

    def __init__(
        self,
        client: LLMClient,
        batch_size: int = 20,
        known_relations: Iterable[str] = (),
        *,
        registry: RelationRegistry | None = None,
        timeout: float | None = None,
        learn_relations: bool = True,
        speaker_as_subject: bool = True,
    ) -> None:
        if batch_size < 1:
            raise InvalidInputError(f"batch_size must be at least 1, got {batch_size}")
        self.client = client
        self.batch_size = batch_size
        self.registry = registry
        self.timeout = timeout
        self.learn_relations = learn_relations
        self.speaker_as_subject = speaker_as_subject
        self._known: dict[str, str] = {}  # normalized name -> name as first given
        for rel in known_relations:
            self.add_relation(rel)

    # -- relations -----------------------------------------------------------------------

    def add_relation(self, name: str) -> None:
        """Make ``name`` a known relation: offered to the model, target of alignment."""
        key = normalize_relation(name)
        if key:
            self._known.setdefault(key, str(name).strip())

    @property
    def known_relations(self) -> list[str]:
        names = dict.fromkeys(self._known.values())
        if self.registry is not None:
            names.update(
                dict.fromkeys(n for n in self.registry.cardinality if n not in self._known)
            )
        return list(names)

    def align_relation(self, relation: str) -> str:
        """The known name ``relation`` means, else ``relation`` as the model wrote it."""
        key = normalize_relation(relation)
        if key in self._known:
            return self._known[key]
        if self.registry is not None:
            canonical = self.registry.synonyms.get(key, key)
            if canonical in self._known:
                return self._known[canonical]
            if canonical in self.registry.cardinality or canonical != key:
                return canonical
        return relation.strip()

    # -- the Extractor protocol ----------------------------------------------------------

    def extract(self, record: Record) -> Extraction:
        return self.extract_many([record])[0]

    def extract_many(self, records: Iterable[Record]) -> list[Extraction]:
        """One extraction per record, in order, asking the model ``batch_size`` at a time."""
        records = list(records)
        results: list[Extraction | None] = [None] * len(records)
        ask: list[int] = []
        for i, rec in enumerate(records):
            if rec.text.strip():
                ask.append(i)
            else:
                results[i] = Extraction.no_fact("empty text")
        for start in range(0, len(ask), self.batch_size):
            chunk = ask[start : start + self.batch_size]
            for i, extraction in zip(
                chunk, self._extract_batch([records[i] for i in chunk]), strict=True
            ):
                results[i] = extraction
        return [r for r in results if r is not None]

    # -- one batch -----------------------------------------------------------------------

    def _extract_batch(self, batch: Sequence[Record]) -> list[Extraction]:
        messages = build_messages(batch, self.known_relations)
        try:
            answer = self.client.chat_json(messages, EXTRACTION_SCHEMA, timeout=self.timeout)
        except LLMError as exc:
            failed = Extraction.unresolved(f"LLM extraction failed, record kept raw: {exc}")
            return [failed] * len(batch)
        entries = answer.get("records") if isinstance(answer, dict) else None
        if not isinstance(entries, list):
            bad = Extraction.unresolved("LLM answer had no 'records' list; record kept raw")
            return [bad] * len(batch)

        by_number: dict[int, list[Any]] = {}
        for entry in entries:
            number = entry.get("record") if isinstance(entry, dict) else None
            if (
                isinstance(number, int)
                and not isinstance(number, bool)
                and (1 <= number <= len(batch))
            ):
                by_number.setdefault(number, []).append(entry)
            # any other number is not a record of this batch: ignored

        out: list[Extraction] = []
        for n, record in enumerate(batch, start=1):
            answers = by_number.get(n)
            if not answers:
                out.append(Extraction.unresolved("the LLM gave no answer for this record"))
            elif any(a != answers[0] for a in answers[1:]):
                out.append(
                    Extraction.unresolved(
                        "the LLM answered this record more than once, differently"
                    )
                )
            else:
                out.append(self._interpret(answers[0], record))
        return out

    def _interpret(self, entry: dict[str, Any], record: Record) -> Extraction:
        problems = validate_json(entry, RECORD_SCHEMA)
        if problems:
            return Extraction.unresolved("malformed LLM answer: " + "; ".join(problems[:3]))
        status = ParseStatus(entry["status"])
        reason = str(entry.get("reason") or "").strip()
        if status is ParseStatus.UNRESOLVED:
            return Extraction.unresolved(f"LLM: {reason}" if reason else "LLM: unresolved")
        if status is ParseStatus.NO_FACT:
            return Extraction.no_fact(f"LLM: {reason}" if reason else "LLM: no fact")

        kept: list[Fact] = []
        dropped: list[str] = []
        hallucinated: list[str] = []
        for raw in entry["facts"]:
            fact, why, made_up = self._check_fact(raw, record)
            if fact is None:
                dropped.append(why)
                if made_up:
                    hallucinated.append(made_up)
            elif fact not in kept:
                kept.append(fact)
        if not kept:
            if hallucinated:
                return Extraction.unresolved("hallucinated names: " + ", ".join(hallucinated))
            if dropped:
                return Extraction.unresolved("unusable LLM facts: " + "; ".join(dropped))
            return Extraction.unresolved("the LLM said 'facts' but gave none")
        if self.learn_relations:
            for fact in kept:
                self.add_relation(fact.relation)
        extra: dict[str, object] = {"dropped": dropped} if dropped else {}
        return Extraction(ParseStatus.FACTS, tuple(kept), "", extra)

    def _check_fact(self, raw: dict[str, Any], record: Record) -> tuple[Fact | None, str, str]:
        """The fact, or None, why it was dropped and the name not found in the record."""
        subject = raw["subject"].strip()
        value = raw["value"].strip()
        intent = Intent(raw["intent"])
        speaker_ok = (
            self.speaker_as_subject
            and bool(record.speaker)
            and _norm_text(subject) == _norm_text(record.speaker or "")
        )
        if not (speaker_ok or occurs_verbatim(subject, record.text)):
            return None, f"subject {subject!r} is not in the record", repr(subject)
        if (value or intent is not Intent.REVOKE) and not occurs_verbatim(value, record.text):
            return None, f"value {value!r} is not in the record", repr(value)
        try:
            return Fact(subject, self.align_relation(raw["relation"]), value, intent), "", ""
        except InvalidInputError as exc:
            return None, f"invalid fact {raw!r}: {exc}", ""
