"""The CLI: every command has --help with an example and is documented in the README."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from graphmem.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def _commands(group: click.Group, prefix: str = "") -> list[str]:
    out = []
    for name, cmd in group.commands.items():
        full = f"{prefix}{name}"
        if isinstance(cmd, click.Group):
            out += _commands(cmd, full + " ")
        else:
            out.append(full)
    return out


COMMANDS = _commands(main)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_is_documented_in_the_readme(command):
    assert f"graphmem {command}" in README.read_text(encoding="utf-8"), command


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(command):
    result = CliRunner().invoke(main, [*command.split(), "--help"])
    assert result.exit_code == 0
    assert "Example:" in result.output
    example = result.output.split("Example:", 1)[1]
    assert "graphmem " in example and command.split()[-1] in example


@pytest.mark.integration
def test_remember_why_history_revoke_audit(neo4j_server, namespace):
    run = lambda *a: CliRunner().invoke(  # noqa: E731
        main, ["--uri", neo4j_server.bolt_url, "-n", namespace, *a], catch_exceptions=False
    )
    assert "ACCEPT" in run("remember", "door", "colour", "red").output
    assert "ACCEPT" in run("remember", "door", "colour", "blue", "--intent", "update").output
    out = run("why", "door", "colour").output
    assert "blue" in out and "replaced red" in out and "MATCH (v:Version" in out
    data = json.loads(run("why", "door", "colour", "--json").output)
    assert data["value"] == "blue"
    assert "REVOKE" in run("revoke", "door", "colour").output
    assert "ACCEPT" in run("history", "door", "colour").output
    assert "(0 rows)" in run("audit", "two_heads").output


@pytest.mark.integration
def test_errors_are_one_line_and_exit_1(neo4j_server, namespace):
    result = CliRunner().invoke(
        main, ["--uri", neo4j_server.bolt_url, "-n", namespace, "revoke", "nothing", "here"]
    )
    assert result.exit_code == 1
    assert result.output.startswith("error: ") and "no current value" in result.output


@pytest.mark.integration
def test_ingest_jsonl(neo4j_server, namespace, tmp_path):
    path = tmp_path / "m.jsonl"
    path.write_text(
        json.dumps(
            {
                "text": "door is red",
                "id": "1",
                "facts": [{"subject": "door", "relation": "colour", "value": "red"}],
            }
        )
        + "\nnot json\n"
        + json.dumps(
            {
                "text": "it's blue now",
                "id": "2",
                "facts": [
                    {"subject": "door", "relation": "colour", "value": "blue", "intent": "update"}
                ],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        main, ["--uri", neo4j_server.bolt_url, "-n", namespace, "ingest", str(path)]
    )
    assert result.exit_code == 1, result.output  # one line was bad; the good ones are stored
    assert "2 of 2 records stored" in result.output
    assert "1 lines were not JSON" in result.output


@pytest.mark.integration
def test_ingest_reads_a_byte_order_mark_and_fails_a_binary_file(neo4j_server, namespace, tmp_path):
    run = lambda *a: CliRunner().invoke(  # noqa: E731
        main, ["--uri", neo4j_server.bolt_url, "-n", namespace, *a]
    )
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps({"text": "bom line", "id": "b1"}).encode() + b"\n")
    result = run("ingest", str(bom))
    assert result.exit_code == 0 and "1 of 1 records stored" in result.output, result.output
    binary = tmp_path / "blob.jsonl"
    binary.write_bytes(bytes(range(256)) * 4)
    result = run("ingest", str(binary))
    assert result.exit_code == 1 and "not valid UTF-8" in result.output, result.output
    for size in ("0", "-1"):
        result = run("ingest", str(bom), "--batch-size", size)
        assert result.exit_code != 0 and "Traceback" not in result.output


@pytest.mark.integration
def test_block_resolve_as_of_state(neo4j_server, namespace):
    def run(*a, code=0):
        result = CliRunner().invoke(main, ["--uri", neo4j_server.bolt_url, "-n", namespace, *a])
        assert result.exit_code == code, result.output
        return result.output

    run("remember", "Minjun", "meeting time", "9:00", "--stated-at", "2026-03-01")
    run(
        "remember",
        "Minjun",
        "meeting time",
        "9:30",
        "--intent",
        "update",
        "--stated-at",
        "2026-05-01",
        "--text",
        "the meeting moved to 9:30",
    )
    assert run("as-of", "Minjun", "meeting time", "2026-04-01").strip() == "9:00"
    assert "(no value)" in run("as-of", "Minjun", "meeting time", "2025-01-01", code=3)
    assert "Minjun meeting_time = 9:30" in run("state")
    assert "(before: 9:00" in run("state", "--history")
    out = run(
        "block",
        "when is the meeting with Minjun?",
        "--partner",
        "Minjun",
        "--fresh",
        "--deadline-ms",
        "5000",
    )
    assert out.startswith("[Relevant memory]") and "9:30" in out
    assert run("block", " ", "--partner", "Minjun").startswith("(no block: empty request")
    assert json.loads(run("block", "the meeting?", "--json", "--k", "1"))["served"] in (
        "snapshot",
        "fresh",
    )
    run(
        "remember",
        "Minjun",
        "meeting time",
        "10:00",
        "--speaker",
        "Jiyoung",
        "--authority",
        "hearsay",
    )
    assert "contested" in json.loads(run("why", "Minjun", "meeting time", "--json"))["status"]
    assert "9:30" in run("resolve", "Minjun", "meeting time", "9:30", "--authority", "official")
    assert "error: " in run("resolve", "Minjun", "meeting time", "9:30", code=1)
