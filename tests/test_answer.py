"""Memory.answer: evidence, then one reader call, over Ollama's protocol (test server)."""

from __future__ import annotations

import re

import pytest

from graphmem import Fact, LLMError, Record
from graphmem.llm.ollama import OllamaClient
from graphmem.llm.testserver import Delay, OllamaTestServer
from graphmem_bench.scoring import score_answer as score

pytestmark = pytest.mark.integration


def _store(memory):
    memory.ingest(
        [
            Record(
                "Christian Abbiati plays the position of cornerback.",
                id="1",
                pos=1,
                facts=(Fact("Christian Abbiati", "position", "cornerback"),),
            ),
            Record(
                "cornerback is associated with the sport of field hockey.",
                id="2",
                pos=2,
                facts=(Fact("cornerback", "sport", "field hockey"),),
            ),
            Record(
                "field hockey was created in the country of Philippines.",
                id="3",
                pos=3,
                facts=(Fact("field hockey", "country of origin", "Philippines"),),
            ),
        ]
    )


def test_answer_sends_the_evidence_and_a_prompt_for_any_memory(memory):
    _store(memory)
    with OllamaTestServer(["Philippines\nbecause record 3 says so"]) as server:
        client = OllamaClient(server.url, model="reader-test")
        ans = memory.answer(
            "What is the country of origin of the sport played by Christian Abbiati?", client
        )
        (body,) = server.chat_requests
    assert ans.first_line == "Philippines"
    assert score(ans, ["Philippines"]) and not score(ans, ["Italy"])
    system, user = body["messages"]
    assert re.search(r"^On \d{4}-\d\d-\d\d:$", system["content"], re.M)  # the day
    assert re.search(
        r"^3\. field hockey was created in the country of Philippines\.$",
        system["content"],
        re.M,
    )  # numbered
    assert "a larger number is newer" in user["content"]
    assert "knowledge pool" not in user["content"].lower()  # no dataset's own prompt
    assert body["options"]["temperature"] == 0


def test_reader_timeout_is_a_typed_error(memory):
    _store(memory)
    with OllamaTestServer([Delay(5, "late")]) as server:
        client = OllamaClient(server.url, model="reader-test", timeout=0.5)
        with pytest.raises(LLMError):
            memory.answer("Christian Abbiati?", client)
