"""schemathesis against the service's own OpenAPI spec, over real HTTP: no 5xx.

Every generated request carries a valid key for one namespace; bodies, paths and query
strings are whatever the schema (and beyond it, the fuzzer) makes up.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402

from graphmem import MemoryConfig  # noqa: E402
from graphmem.llm.testserver import OllamaTestServer  # noqa: E402
from graphmem.service.app import ServiceThread, Settings, create_app  # noqa: E402

pytestmark = pytest.mark.integration
KEY = "fuzz-key-000001"


@pytest.fixture(scope="module")
def service(neo4j_server: Any) -> Iterator[ServiceThread]:
    # A reader that always answers, over Ollama's protocol: /answer is fuzzed too.
    with OllamaTestServer(lambda body: "an answer") as reader:
        memory = MemoryConfig(neo4j_uri=neo4j_server.bolt_url, neo4j_auth=neo4j_server.auth)
        app = create_app(
            Settings(
                memory=memory,
                api_keys={KEY: ["fuzz"]},
                reader_url=reader.url,
                reader_model="fuzz-reader",
            )
        )
        with ServiceThread(app) as server:
            yield server


def test_no_server_errors_under_fuzzing(service: ServiceThread) -> None:
    schema = schemathesis.openapi.from_url(f"{service.url}/openapi.json")
    failures: list[str] = []
    calls: list[str] = []
    ops = [r.ok() for r in schema.get_all_operations()]

    for op in ops:
        strategy = op.as_strategy()

        @settings(
            max_examples=15,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        @hypothesis_given(strategy)
        def run(case: Any) -> None:
            if "namespace" in (case.path_parameters or {}):
                case.path_parameters["namespace"] = "fuzz"
            response = case.call(headers={"Authorization": f"Bearer {KEY}"}, timeout=30)
            calls.append(f"{case.method} {case.path}")
            if response.status_code >= 500:
                failures.append(
                    f"{case.method} {case.formatted_path} -> "
                    f"{response.status_code}: {response.text[:200]}"
                )

        run()
    assert len(ops) >= 12 and len(calls) >= 10 * len(ops)
    assert failures == [], "\n".join(failures[:10])


def hypothesis_given(strategy: Any):  # a tiny alias keeps the decorator stack readable
    from hypothesis import given

    return given(strategy)
