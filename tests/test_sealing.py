"""Sealed record text (crypto-shredding): record text reaches Neo4j only encrypted with a
key of its own, kept outside Neo4j; erase destroys the key. Everything that reads text
gets it back in plain form, and the full-text index finds sealed records by keyed hashes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem import Fact, InvalidInputError, Memory, Record
from graphmem.store.sealing import SEALED_PREFIX, SQLiteKeyStore, TextSealer, index_tokens

WORD = "Quillonbery"  # made up: a hit can only be this test's


def _sealer(tmp_path: Path) -> TextSealer:
    return TextSealer(SQLiteKeyStore(tmp_path / "keys.sqlite3"), lambda ns: ns.encode() * 4)


# -- the sealer, without Neo4j ---------------------------------------------------------------
@given(st.text(max_size=300))
def test_open_gives_back_what_was_sealed(tmp_path_factory, text: str) -> None:
    sealer = _sealer(tmp_path_factory.mktemp("keys"))
    [sealed] = sealer.seal("ns", [text])
    assert sealed.startswith(SEALED_PREFIX)
    # The text must not show in the sealed payload (after the fixed prefix and key id,
    # which a text like "gm-seale" would match without any leak); a short text may
    # occur in base64 by chance.
    payload = sealed.rsplit(":", 1)[1]
    assert len(text) < 8 or text not in payload
    assert sealer.open(sealed) == text


def test_a_shredded_text_never_opens_again(tmp_path: Path) -> None:
    sealer = _sealer(tmp_path)
    sealed = sealer.seal("ns", ["my card pin is 7316", "keep me"])
    assert sealer.shred([sealed[0], "plain text has no key"]) == 1
    with pytest.raises(InvalidInputError, match="destroyed"):
        sealer.open(sealed[0])
    assert sealer.open(sealed[1]) == "keep me"
    # Reopening the key store (a new process) finds no key either.
    again = TextSealer(SQLiteKeyStore(tmp_path / "keys.sqlite3"), lambda ns: b"x")
    with pytest.raises(InvalidInputError):
        again.open(sealed[0])
    assert again.open(sealed[1]) == "keep me"


def test_the_key_store_overwrites_a_destroyed_key(tmp_path: Path) -> None:
    keys = SQLiteKeyStore(tmp_path / "keys.sqlite3")
    secret_key = b"\x5a" * 13 + b"UNIQUEKEYBYTES" + b"\x5a" * 5
    keys.put("ns", {"a" * 32: secret_key, "b" * 32: b"\x01" * 32})
    keys.close()
    assert secret_key in (tmp_path / "keys.sqlite3").read_bytes()
    keys = SQLiteKeyStore(tmp_path / "keys.sqlite3")
    assert keys.destroy(["a" * 32]) == 1
    keys.close()
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"UNIQUEKEYBYTES" not in data


def test_tampered_ciphertext_is_refused(tmp_path: Path) -> None:
    sealer = _sealer(tmp_path)
    [sealed] = sealer.seal("ns", ["hello"])
    head, body = sealed.rsplit(":", 1)
    flipped = body[:-3] + ("A" if body[-3] != "A" else "B") + body[-2:]
    with pytest.raises(InvalidInputError):
        sealer.open(f"{head}:{flipped}")
    assert sealer.open("never sealed") == "never sealed"  # written before sealing


def test_index_tokens_read_words_and_hangul_bigrams() -> None:
    assert index_tokens("Minjun's meeting moved to Room B!") == [
        "minjun",
        "s",
        "meeting",
        "moved",
        "to",
        "room",
        "b",
    ]
    assert index_tokens("회의실은 5층") == ["회의", "의실", "실은", "5", "층"]
    assert index_tokens("Jake랑 lunch") == ["jake", "랑", "lunch"]


def test_term_hashes_depend_on_the_namespace_key(tmp_path: Path) -> None:
    sealer = _sealer(tmp_path)
    a, b = sealer.terms("alpha", "room"), sealer.terms("beta", "room")
    assert a != b and a == sealer.terms("alpha", "ROOM")
    assert "room" not in " ".join(a)


# -- through Memory, on a real Neo4j ---------------------------------------------------------
@pytest.fixture
def sealed(connect: Callable[..., Memory], namespace: str, tmp_path: Path) -> Memory:
    return connect(namespace, seal_text=True, key_store=str(tmp_path / "keys.sqlite3"))


def _stored_texts(memory: Memory) -> list[str]:
    rows = memory.store.driver.execute_query(
        "MATCH (e:Evidence {ns: $ns}) RETURN e.text AS text, e.terms AS terms", ns=memory.namespace
    ).records
    return [json.dumps(r.data(), ensure_ascii=False) for r in rows]


def test_every_read_gives_plain_text_while_neo4j_holds_none(sealed: Memory) -> None:
    sealed.remember(
        "Minjun",
        "meeting room",
        "Room B",
        record_id="m1",
        text=f"Minjun: the {WORD} meeting moved to Room B",
    )
    request = f"which room is the {WORD} meeting in?"
    fresh = sealed.block(request, "Minjun", fresh=True, deadline_ms=5000)
    assert fresh.served == "fresh" and WORD in fresh.text, fresh
    snap = sealed.block(request, "Minjun", fresh=False)
    assert snap.served == "snapshot" and WORD in snap.text, snap
    sealed.ingest(
        [
            Record(f"민준: {WORD} 회의실은 5층이에요", id="m2"),
            Record("Room B is on floor 5", id="m3", facts=(Fact("Room B", "floor", "5"),)),
        ]
    )
    stored = _stored_texts(sealed)
    assert len(stored) == 3 and not [t for t in stored if WORD in t or "회의실" in t]
    assert WORD in sealed.evidence("Where is Minjun's meeting?").text
    assert sealed.why("Minjun", "meeting room").head["evidence"][0]["text"].endswith("Room B")
    assert WORD in sealed.history("Minjun", "meeting room")[0]["text"]


def test_fresh_reads_find_sealed_korean_records(sealed: Memory) -> None:
    sealed.remember(
        "민준",
        "meeting room",
        "3층 회의실",
        record_id="k1",
        text="민준: 주간회의는 3층 회의실에서 해요",
    )
    sealed.remember("서연", "meeting room", "2층", record_id="k2", text="서연: 점심은 2층에서")
    found = sealed.store.fresh_candidates(sealed.namespace, ["주간회의", "어디서"], 10)
    assert [r.record_id for r in found] == ["k1"]
    assert found[0].text == "민준: 주간회의는 3층 회의실에서 해요"
    block = sealed.block("주간회의 어디서 해?", "민준", fresh=True, deadline_ms=5000)
    assert block.served == "fresh" and "3층 회의실" in block.text, block


def test_erase_destroys_the_records_key(sealed: Memory) -> None:
    sealed.remember("door", "code", "4417", record_id="d1", text=f"{WORD}: door code 4417")
    sealed.remember("door", "colour", "red", record_id="d2", text="the door is red")
    [before] = [
        t
        for t in (json.loads(s)["text"] for s in _stored_texts(sealed))
        if t and sealed.store.sealer.open(t).startswith(WORD)
    ]
    keys = sealed.store.sealer.keys
    count = keys.count()
    sealed.erase("d1")
    assert keys.count() == count - 1
    with pytest.raises(InvalidInputError, match="destroyed"):
        sealed.store.sealer.open(before)  # the ciphertext Neo4j may keep is noise now
    assert sealed.why("door", "colour").head["evidence"][0]["text"] == "the door is red"


def test_a_revoke_erased_along_loses_its_key_too(sealed: Memory) -> None:
    sealed.remember("door", "code", "4417", record_id="d1", text="door code 4417")
    sealed.revoke("door", "code", text=f"{WORD} says forget the door code")
    keys = sealed.store.sealer.keys
    count = keys.count()
    sealed.erase("d1")  # the revoke only took back what d1 said: it goes too
    assert keys.count() == count - 2
    assert not [t for t in _stored_texts(sealed) if "gm-sealed" in t]


def test_switching_sealing_off_keeps_sealed_records_readable_and_erasable(
    connect: Callable[..., Memory], namespace: str, tmp_path: Path
) -> None:
    keys = str(tmp_path / "keys.sqlite3")
    on = connect(namespace, seal_text=True, key_store=keys)
    on.remember("door", "code", "4417", record_id="d1", text=f"{WORD}: door code 4417")
    off = connect(namespace, seal_text=False, key_store=keys)
    off.remember("door", "colour", "red", record_id="d2", text="the door is red")
    stored = _stored_texts(off)
    assert sum("gm-sealed" in t for t in stored) == 1  # the new record is plain
    assert off.why("door", "code").head["evidence"][0]["text"].startswith(WORD)
    count = off.store.sealer.keys.count()
    off.erase("d1")
    assert off.store.sealer.keys.count() == count - 1


def test_a_sealed_turn_mentions_only_keyed_hashes_and_is_still_walked_to(
    connect: Callable[..., Memory], namespace: str, tmp_path: Path
) -> None:
    """What a sealed raw record mentions is stored as keyed hashes, like its index words,
    and evidence still walks from one turn to another through them (no embedder: only
    words and the walk choose)."""
    sealed = connect(
        namespace, seal_text=True, key_store=str(tmp_path / "keys.sqlite3"), embedder="none"
    )
    sealed.ingest(
        [
            Record(f"My favourite dessert is {WORD} ice cream", id="t1", pos=0, speaker="Nate"),
            Record(f"I baked a cake with {WORD} yesterday", id="t2", pos=50, speaker="Nate"),
        ]
        + [Record(f"the weather report {i}", id=f"w{i}", pos=100 + i) for i in range(20)]
    )
    rows = sealed.store.driver.execute_query(
        "MATCH (:Evidence {ns: $ns})-[:MENTIONS]->(m:Mention) RETURN DISTINCT m.key AS key",
        ns=sealed.namespace,
    ).records
    keys = [r["key"] for r in rows]
    assert keys and all(k.startswith("t") and len(k) == 21 for k in keys)
    assert not [k for k in keys if WORD.casefold()[:6] in k or "dessert" in k]
    ids = [r.id for r in sealed.evidence("Which dessert does Nate like?").records]
    assert "t1" in ids and "t2" in ids
