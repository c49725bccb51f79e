"""The grammar adapter: MQuAKE cloze templates as regexes (Contract Memory Compiler's first step).

``cloze_templates.json`` maps Wikidata relation ids to sentences such as
``"[X] is located in the country of __"``. Each becomes a full-match regex with a lazy
subject group and the value up to the sentence's final period, taken exactly as written.
Templates are tried most specific first (longest literal text), so "The [X] is __" only
catches what nothing more specific does. Two ids with the same sentence (P131, P276:
"[X] is located in __") are one relation.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from graphmem.domain.model import Fact, Intent, Record
from graphmem.extract.base import Extraction
from graphmem_bench.extract.patterns import PatternExtractor, Template

__all__ = ["RELATION_NAMES", "GrammarExtractor", "load_cloze_templates"]

# Readable relation names for the Wikidata ids MQuAKE uses.
RELATION_NAMES = {
    "P17": "country",
    "P19": "place of birth",
    "P20": "place of death",
    "P26": "spouse",
    "P30": "continent",
    "P36": "capital",
    "P40": "child",
    "P50": "author",
    "P69": "educated at",
    "P106": "field of work",
    "P112": "founded by",
    "P127": "owned by",
    "P131": "located in",
    "P136": "genre",
    "P159": "headquarters location",
    "P170": "creator",
    "P175": "performer",
    "P176": "manufacturer",
    "P264": "record label",
    "P276": "located in",
    "P407": "language of work",
    "P413": "position played",
    "P495": "country of origin",
    "P740": "location of formation",
    "P800": "notable work",
    "P364": "original language",
    "P1412": "languages spoken",
    "P27": "citizenship",
    "P937": "work location",
    "P37": "official language",
    "P140": "religion",
    "P178": "developer",
    "P108": "employer",
    "P641": "sport",
    "P190": "twinned administrative body",
    "P463": "member of",
    "P449": "original broadcaster",
    "P35": "head of state",
    "P286": "head coach",
    "P1308": "officeholder",
    "P488": "chairperson",
    "P169": "chief executive officer",
    "P1037": "director",
    "P6": "head of government",
}


def load_cloze_templates(data_dir: str | Path) -> dict[str, str]:
    path = Path(data_dir) / "mquake" / "prompts" / "templates" / "cloze_templates.json"
    if not path.is_file():
        raise FileNotFoundError(
            f"MQuAKE cloze templates not found at {path}; pass the data folder that holds "
            "mquake/prompts/templates/cloze_templates.json"
        )
    return json.loads(path.read_text(encoding="utf-8"))


def _regex(template: str) -> str:
    if "[X]" not in template or not template.rstrip().endswith("__"):
        raise ValueError(f"not a cloze template: {template!r}")
    head, _, _ = template.rstrip().rpartition("__")
    before, _, after = head.partition("[X]")
    # Subject: lazy, at least one non-space character; value: the rest, as written (the
    # sentence's own final period is removed before matching).
    return re.escape(before) + r"(?P<subject>\S.*?)" + re.escape(after) + r"(?P<value>\S.*)"


class GrammarExtractor(PatternExtractor):
    """Parses one fact per line; a line no template matches is ``no_fact``."""

    def __init__(self, templates: dict[str, str]) -> None:
        seen: dict[str, Template] = {}
        for pid, sentence in templates.items():
            if sentence in seen:
                continue
            relation = RELATION_NAMES.get(pid, pid)
            seen[sentence] = Template.compile(_regex(sentence), relation, Intent.ASSERT)
        ordered = sorted(seen.items(), key=lambda kv: -len(kv[0].replace("[X]", "")))
        super().__init__([t for _, t in ordered], name="grammar")

    @classmethod
    def from_data_dir(cls, data_dir: str | Path) -> GrammarExtractor:
        return cls(load_cloze_templates(data_dir))

    def extract(self, record: Record) -> Extraction:
        text = record.text.strip()
        # The value may itself end with a period ("Washington, D.C.."): drop exactly one.
        if text.endswith("."):
            text = text[:-1]
        for t in self.templates:
            m = t.pattern.fullmatch(text)
            if m:
                return Extraction.found(
                    Fact(m.group("subject"), t.relation, m.group("value"), t.intent)
                )
        return Extraction.no_fact("no template matches")
