"""``graphmem-bench``: every command has --help with an example and is documented."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem_bench.cli import main

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = sorted(main.commands)


def test_there_are_commands():
    assert {"pmem", "factconsolidation", "blocks", "service", "extraction"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_benchmark_is_documented(command):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"graphmem-bench {command}" in readme, command


@pytest.mark.parametrize("command", COMMANDS)
def test_every_benchmark_has_help_with_an_example(command):
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0
    example = result.output.split("Example:", 1)[1]
    assert f"graphmem-bench {command}" in example
