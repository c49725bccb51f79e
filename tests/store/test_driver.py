"""The Bolt driver runs with its Rust PackStream: in pure Python, packing a question's
candidate name spans took most of an evidence call (about 4 ms of 5 at FactConsolidation
32k)."""

from __future__ import annotations

from neo4j._codec.packstream import v1


def test_packstream_is_the_rust_extension():
    assert v1._rust_pack is not None, "pip install neo4j-rust-ext (a graphmem dependency)"
    assert v1._rust_unpack is not None
