"""LoCoMo: ten long conversations; each turn becomes a record.

A turn's speaker is the record's speaker, the other side of the conversation its
participant (the partner the agent was talking to), the session's date its
``observed_at``. ``distinct_speakers=True`` names each speaker by conversation
("John#conv-30"), so colliding first names are stored as different entities.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.domain.model import Record

__all__ = ["CATEGORY_NUMBERS", "Conversation", "load_conversations", "load_files", "records"]

FILE = Path("locomo") / "locomo10.json"
# LoCoMo numbers its question categories; sets written in its layout may name them.
CATEGORY_NUMBERS = {"multi-hop": 1, "temporal": 2, "open-domain": 3, "single-hop": 4}


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: list[tuple[str | None, list[dict[str, object]]]]  # (date, turns)
    qa: list[dict[str, object]]


def _date(text: str | None) -> str | None:
    """'1:56 pm on 8 May, 2023' -> ISO."""
    if not text:
        return None
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").isoformat()
    except ValueError:
        return None


def load_conversations(data_dir: str | Path) -> list[Conversation]:
    path = Path(data_dir) / FILE
    if not path.is_file():
        raise FileNotFoundError(f"LoCoMo not found at {path}; pass the folder holding {FILE}")
    return load_files([path])


def load_files(paths: list[Path]) -> list[Conversation]:
    """Conversations from files in LoCoMo's layout; named categories become its numbers."""
    out = []
    for path in paths:
        out.extend(_parse(json.loads(Path(path).read_text(encoding="utf-8"))))
    return out


def _parse(items: list[dict[str, Any]]) -> list[Conversation]:
    out = []
    for c in items:
        conv = c["conversation"]
        nums = sorted(int(m.group(1)) for k in conv if (m := re.fullmatch(r"session_(\d+)", k)))
        sessions = [(_date(conv.get(f"session_{n}_date_time")), conv[f"session_{n}"]) for n in nums]
        qa = [
            {**q, "category": CATEGORY_NUMBERS.get(str(q.get("category")), q.get("category"))}
            for q in c.get("qa", [])
        ]
        out.append(
            Conversation(str(c["sample_id"]), conv["speaker_a"], conv["speaker_b"], sessions, qa)
        )
    return out


def records(
    conv: Conversation, *, distinct_speakers: bool = False, start_pos: int = 0
) -> Iterator[Record]:
    def name(who: str) -> str:
        return f"{who}#{conv.sample_id}" if distinct_speakers else who

    pos = start_pos
    for date, turns in conv.sessions:
        for t in turns:
            speaker = str(t["speaker"])
            other = conv.speaker_b if speaker == conv.speaker_a else conv.speaker_a
            yield Record(
                str(t.get("text") or "").strip() or "(image)",
                id=f"{conv.sample_id}:{t['dia_id']}",
                pos=pos,
                speaker=name(speaker),
                participants=(name(other),),
                observed_at=date,
                source=conv.sample_id,
            )
            pos += 1
