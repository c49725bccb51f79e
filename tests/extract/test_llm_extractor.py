"""LLMExtractor end to end: OllamaClient over HTTP to a server that answers like Ollama.

The model's answers are scripted; what is tested is graphmem's side: the request it
sends and what it refuses to believe in the answer.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from graphmem import InvalidInputError
from graphmem.domain.keys import RelationRegistry
from graphmem.domain.model import Fact, Intent, ParseStatus, Record
from graphmem.extract.base import Extractor
from graphmem.extract.llm import LLMExtractor, occurs_verbatim
from graphmem.extract.prompts import EXTRACTION_SCHEMA, SYSTEM_PROMPT
from graphmem.llm import OllamaClient
from graphmem.llm.testserver import Delay, OllamaTestServer, StatusError

FACTS, UNRESOLVED, NO_FACT = ParseStatus.FACTS, ParseStatus.UNRESOLVED, ParseStatus.NO_FACT


def fact(subject: str, relation: str, value: str, intent: str = "assert") -> dict[str, str]:
    return {"subject": subject, "relation": relation, "value": value, "intent": intent}


def entry(n: int, status: str = "facts", *facts: dict[str, str], **more: Any) -> dict[str, Any]:
    return {"record": n, "status": status, "facts": list(facts), **more}


def batch_texts(body: dict[str, Any]) -> list[str]:
    """The record texts of one chat request, in their numbered order."""
    user = body["messages"][-1]["content"]
    lines = user.split("Records:\n", 1)[1].splitlines()
    items = [json.loads(line) for line in lines]
    assert [i["record"] for i in items] == list(range(1, len(items) + 1))
    return [i["text"] for i in items]


def scripted(table: dict[str, dict[str, Any]]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A model that answers each record by its text (numbered as sent); unknown → omitted."""

    def answer(body: dict[str, Any]) -> dict[str, Any]:
        out = []
        for n, text in enumerate(batch_texts(body), start=1):
            if text in table:
                out.append({**table[text], "record": n})
        return {"records": out}

    return answer


@pytest.fixture
def server() -> Iterator[OllamaTestServer]:
    with OllamaTestServer() as srv:
        yield srv


@pytest.fixture
def client(server: OllamaTestServer) -> Iterator[OllamaClient]:
    with OllamaClient(server.url, model="test-model", timeout=5) as c:
        yield c


def test_is_an_extractor(client: OllamaClient) -> None:
    ex: Extractor = LLMExtractor(client)
    assert ex.name == "llm"


def test_happy_path_and_the_request(server: OllamaTestServer, client: OllamaClient) -> None:
    records = [Record("Minjun's 5k personal best is 27:12", id="a"), Record("Hello there!")]
    server.push(
        {
            "records": [
                entry(1, "facts", fact("Minjun", "5k personal best", "27:12")),
                entry(2, "no_fact"),
            ]
        }
    )
    got = LLMExtractor(client).extract_many(records)

    assert got[0].status is FACTS
    assert got[0].facts == (Fact("Minjun", "5k personal best", "27:12", Intent.ASSERT),)
    assert got[1].status is NO_FACT
    [req] = server.chat_requests
    assert req["format"] == EXTRACTION_SCHEMA
    assert req["options"] == {"temperature": 0}
    assert req["stream"] is False
    assert req["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert batch_texts(req) == [r.text for r in records]


def test_intents_are_carried(server: OllamaTestServer, client: OllamaClient) -> None:
    server.push(
        {
            "records": [
                entry(1, "facts", fact("door", "colour", "blue", "update")),
                entry(2, "facts", fact("door", "colour", "", "revoke")),
            ]
        }
    )
    got = LLMExtractor(client).extract_many(
        [Record("The door is blue now"), Record("Forget what I said about the door")]
    )
    assert got[0].facts == (Fact("door", "colour", "blue", Intent.UPDATE),)
    assert got[1].facts == (Fact("door", "colour", "", Intent.REVOKE),)


def test_malformed_json_makes_the_batch_unresolved(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push('{"records": [{"record": 1, "status": "fa')
    got = LLMExtractor(client).extract_many([Record("Door is red"), Record("Sky is blue")])
    assert [g.status for g in got] == [UNRESOLVED, UNRESOLVED]
    assert all("not valid JSON" in g.reason and "kept raw" in g.reason for g in got)


def test_schema_violation_makes_the_batch_unresolved(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push({"records": [entry(1, "maybe")]})
    [got] = LLMExtractor(client).extract_many([Record("Door is red")])
    assert got.status is UNRESOLVED
    assert "does not match the requested schema" in got.reason


def test_timeout_makes_the_batch_unresolved_quickly(server: OllamaTestServer) -> None:
    server.push(Delay(10, {"records": []}))
    with OllamaClient(server.url, timeout=5) as client:
        t0 = time.monotonic()
        got = LLMExtractor(client, timeout=0.3).extract_many([Record("Door is red")] * 2)
    assert time.monotonic() - t0 < 3
    assert [g.status for g in got] == [UNRESOLVED, UNRESOLVED]
    assert "did not answer within 0.3s" in got[0].reason


def test_http_500_makes_the_batch_unresolved(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(StatusError(500, "out of memory"))
    [got] = LLMExtractor(client).extract_many([Record("Door is red")])
    assert got.status is UNRESOLVED
    assert "HTTP 500: out of memory" in got.reason


def test_connection_refused_makes_records_unresolved() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with OllamaClient(f"http://127.0.0.1:{port}", timeout=2) as client:
        got = LLMExtractor(client).extract(Record("Door is red"))
    assert got.status is UNRESOLVED
    assert "Is Ollama running?" in got.reason


def test_only_the_failed_batch_is_unresolved(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(
        StatusError(503, "busy"),
        {"records": [entry(1, "facts", fact("Sky", "colour", "blue"))]},
    )
    got = LLMExtractor(client, batch_size=2).extract_many(
        [Record("Door is red"), Record("Roof is grey"), Record("Sky is blue")]
    )
    assert [g.status for g in got] == [UNRESOLVED, UNRESOLVED, FACTS]
    assert got[2].facts[0].value == "blue"


def test_hallucinated_subject_is_dropped_and_record_unresolved(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push({"records": [entry(1, "facts", fact("Jiyoung", "employer", "Samsung"))]})
    [got] = LLMExtractor(client).extract_many([Record("She works at Samsung now")])
    assert got.status is UNRESOLVED
    assert got.reason == "hallucinated names: 'Jiyoung'"


def test_hallucinated_value_is_dropped(server: OllamaTestServer, client: OllamaClient) -> None:
    server.push({"records": [entry(1, "facts", fact("Minjun", "hometown", "Seoul"))]})
    [got] = LLMExtractor(client).extract_many([Record("Minjun grew up in the capital")])
    assert got.status is UNRESOLVED
    assert "'Seoul'" in got.reason


def test_good_facts_survive_a_hallucinated_sibling(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(
        {
            "records": [
                entry(
                    1,
                    "facts",
                    fact("Minjun", "employer", "Kakao"),
                    fact("Minjun", "city", "Pangyo"),
                )
            ]
        }
    )
    [got] = LLMExtractor(client).extract_many([Record("Minjun now works at Kakao")])
    assert got.status is FACTS
    assert got.facts == (Fact("Minjun", "employer", "Kakao"),)
    assert got.extra["dropped"] == ["value 'Pangyo' is not in the record"]


def test_verbatim_check_ignores_case_and_whitespace_only(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    text = "김민준님이  New\nYork 으로 이사했어"
    server.push({"records": [entry(1, "facts", fact("김민준", "city", "new york", "update"))]})
    [got] = LLMExtractor(client).extract_many([Record(text)])
    assert got.facts == (Fact("김민준", "city", "new york", Intent.UPDATE),)
    assert occurs_verbatim("NEW  YORK", text)
    assert not occurs_verbatim("NewYork", text)
    assert not occurs_verbatim("  ", text)


def test_pronoun_sentence_marked_unresolved_stays_unresolved(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(
        {"records": [entry(1, "unresolved", fact("He", "city", "Busan"), reason="pronoun subject")]}
    )
    [got] = LLMExtractor(client).extract_many([Record("He moved to Busan")])
    assert got.status is UNRESOLVED
    assert got.facts == ()
    assert got.reason == "LLM: pronoun subject"


def test_omitted_record_is_unresolved_and_stray_numbers_ignored(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(
        {
            "records": [
                entry(2, "facts", fact("Sky", "colour", "blue")),
                entry(7, "facts", fact("Door", "colour", "red")),
                entry(0, "no_fact"),
            ]
        }
    )
    got = LLMExtractor(client).extract_many([Record("Door is red"), Record("Sky is blue")])
    assert got[0].status is UNRESOLVED
    assert "no answer" in got[0].reason
    assert got[1].facts == (Fact("Sky", "colour", "blue"),)


def test_conflicting_duplicate_answers_are_unresolved(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(
        {
            "records": [
                entry(1, "facts", fact("Door", "colour", "red")),
                entry(1, "no_fact"),
            ]
        }
    )
    [got] = LLMExtractor(client).extract_many([Record("Door is red")])
    assert got.status is UNRESOLVED


def test_facts_status_without_facts_is_unresolved(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push({"records": [entry(1, "facts")]})
    [got] = LLMExtractor(client).extract_many([Record("Door is red")])
    assert got.status is UNRESOLVED


def test_relation_aligned_to_known_relation(server: OllamaTestServer, client: OllamaClient) -> None:
    server.push({"records": [entry(1, "facts", fact("Alice", "Place_Of-Birth", "Paris"))]})
    ex = LLMExtractor(client, known_relations=["place of birth", "employer"])
    [got] = ex.extract_many([Record("Alice was born in Paris")])
    assert got.facts == (Fact("Alice", "place of birth", "Paris"),)
    user = server.chat_requests[0]["messages"][-1]["content"]
    assert 'Existing relation names: ["employer", "place of birth"]' in user


def test_relation_aligned_through_registry_synonym(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    registry = RelationRegistry()
    registry.declare("employer", "one", synonyms=["works for", "company"])
    server.push({"records": [entry(1, "facts", fact("Bob", "Works for", "Acme"))]})
    [got] = LLMExtractor(client, registry=registry).extract_many([Record("Bob works for Acme")])
    assert got.facts == (Fact("Bob", "employer", "Acme"),)
    assert "employer" in server.chat_requests[0]["messages"][-1]["content"]


def test_new_relations_are_offered_to_later_batches(
    server: OllamaTestServer, client: OllamaClient
) -> None:
    server.push(
        {"records": [entry(1, "facts", fact("Door", "paint colour", "red"))]},
        {"records": [entry(1, "facts", fact("Roof", "Paint Colour", "grey"))]},
    )
    got = LLMExtractor(client, batch_size=1).extract_many(
        [Record("Door is painted red"), Record("Roof is painted grey")]
    )
    assert [g.facts[0].relation for g in got] == ["paint colour", "paint colour"]
    assert '["paint colour"]' in server.chat_requests[1]["messages"][-1]["content"]


def test_batches_keep_record_order(server: OllamaTestServer) -> None:
    texts = [f"Item{i} costs {i}0 won" for i in range(5)]
    table = {
        t: entry(0, "facts", fact(f"Item{i}", "price", f"{i}0 won")) for i, t in enumerate(texts)
    }
    with OllamaTestServer(scripted(table)) as srv, OllamaClient(srv.url, timeout=5) as client:
        got = LLMExtractor(client, batch_size=2).extract_many(Record(t) for t in texts)
        assert len(srv.chat_requests) == 3
    assert [g.facts[0].value for g in got] == [f"{i}0 won" for i in range(5)]


def test_speaker_may_be_the_subject_of_a_first_person_record(server: OllamaTestServer) -> None:
    rec = Record("내 5k 기록은 27:12야", speaker="Minjun")
    table = {rec.text: entry(0, "facts", fact("Minjun", "5k personal best", "27:12"))}
    with OllamaTestServer(scripted(table)) as srv, OllamaClient(srv.url, timeout=5) as client:
        assert LLMExtractor(client).extract(rec).facts == (
            Fact("Minjun", "5k personal best", "27:12"),
        )
        assert '"speaker": "Minjun"' in srv.chat_requests[0]["messages"][-1]["content"]
        strict = LLMExtractor(client, speaker_as_subject=False).extract(rec)
    assert strict.status is UNRESOLVED
    assert strict.reason == "hallucinated names: 'Minjun'"


def test_empty_records_cost_no_call(server: OllamaTestServer, client: OllamaClient) -> None:
    # An empty record never reaches an extractor: Record refuses it (ingest reports it).
    with pytest.raises(InvalidInputError, match="empty"):
        Record("   ")
    assert LLMExtractor(client).extract_many([]) == []
    assert server.chat_requests == []


def test_batch_size_must_be_positive(client: OllamaClient) -> None:
    with pytest.raises(ValueError, match="batch_size"):
        LLMExtractor(client, batch_size=0)
