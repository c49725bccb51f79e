"""Regex templates to typed facts: the grammar adapter's machinery.

A template names the relation, the intent, and which named groups hold the subject and
the value. A record either matches one template fully (facts) or none (no_fact): this
extractor never guesses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from graphmem.domain.model import Fact, Intent, Record
from graphmem.extract.base import Extraction

__all__ = ["PatternExtractor", "Template"]


@dataclass(frozen=True)
class Template:
    pattern: re.Pattern[str]
    relation: str
    intent: Intent = Intent.ASSERT
    subject_group: str = "subject"
    value_group: str = "value"

    @classmethod
    def compile(cls, regex: str, relation: str, intent: Intent = Intent.ASSERT) -> Template:
        return cls(re.compile(regex), relation, intent)


class PatternExtractor:
    """First full match wins; subject and value are taken exactly as written."""

    def __init__(self, templates: Iterable[Template], name: str = "patterns") -> None:
        self.templates = list(templates)
        self.name = name

    def extract(self, record: Record) -> Extraction:
        text = record.text.strip()
        if not text:
            return Extraction.no_fact("empty text")
        for t in self.templates:
            m = t.pattern.fullmatch(text)
            if m is None:
                continue
            subject = m.group(t.subject_group).strip()
            value = (m.group(t.value_group) or "").strip() if t.value_group in m.groupdict() else ""
            if not subject or (not value and t.intent is not Intent.REVOKE):
                continue
            return Extraction.found(Fact(subject, t.relation, value, t.intent))
        return Extraction.no_fact("no template matches")
