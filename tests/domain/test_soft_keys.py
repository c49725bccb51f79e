"""Soft key identity: an embedding proposes, a key-only check confirms; values never shown."""

from __future__ import annotations

import pytest

from graphmem import Fact, Record, RelationRegistry
from graphmem.domain.soft_keys import SoftKeyMatcher, llm_key_check
from graphmem.llm.ollama import OllamaClient
from graphmem.llm.testserver import OllamaTestServer


def _matcher(server: OllamaTestServer) -> SoftKeyMatcher:
    client = OllamaClient(server.url, model="m", embed_model="e")
    return SoftKeyMatcher(client.embed, llm_key_check(client))


def test_similar_names_are_proposed_and_merged_only_when_confirmed():
    reg = RelationRegistry()
    with OllamaTestServer([{"answer": "SAME"}, {"answer": "DIFFERENT"}]) as server:
        m = _matcher(server)
        m.learn(["5k personal best time", "home city"])
        assert m.align("personal best 5k time", reg) == "5k_personal_best_time"
        assert reg.align("personal best 5k time") == "5k_personal_best_time"  # decided once
        assert m.align("home city", reg) == "home_city"  # known: no check
        assert m.align("city home", reg) == "city_home"  # proposed, checker says DIFFERENT
        asked = [b["messages"][0]["content"] for b in server.chat_requests]
    assert len(asked) == 2
    assert "personal best 5k time" in asked[0] and "5k personal best time" in asked[0]


def test_dissimilar_names_are_never_sent_to_the_checker():
    reg = RelationRegistry()
    with OllamaTestServer([]) as server:
        m = _matcher(server)
        m.learn(["birth city"])
        assert m.align("favourite colour", reg) == "favourite_colour"
        assert server.chat_requests == []
        assert m.decisions[-1]["merged"] is False


@pytest.mark.integration
def test_memory_merges_keys_and_never_shows_values(connect, namespace):
    with OllamaTestServer([{"answer": "SAME"}]) as server:
        memory = connect(namespace, soft_keys=_matcher(server))
        memory.ingest(
            [
                Record(
                    "My PB is 27:12",
                    id="1",
                    facts=(Fact("Minjun", "5k personal best time", "27:12"),),
                )
            ]
        )
        memory.ingest(
            [
                Record(
                    "New PB: 25:50",
                    id="2",
                    facts=(Fact("Minjun", "personal best 5k time", "25:50", "update"),),
                )
            ]
        )
        sent = " ".join(m["content"] for b in server.chat_requests for m in b["messages"])
    why = memory.why("Minjun", "5k personal best time")
    assert why.value == "25:50" and [v["value"] for v in why.replaced] == ["27:12"]
    assert "27:12" not in sent and "25:50" not in sent
