"""The library installs light: its wheel, built here, requires no web framework, MCP SDK,
plotting, benchmark or test package, and ships no benchmark code."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("fastapi", "uvicorn", "mcp", "matplotlib", "bm25s", "pytest", "httptools", "uvloop")


def _requirement_name(line: str) -> str:
    name = line.split(";")[0].strip()
    for sep in ("[", "<", ">", "=", "~", "!", " ", "("):
        name = name.split(sep)[0]
    return name.lower()


def _unconditional(requires: list[str]) -> set[str]:
    return {_requirement_name(r) for r in requires if "extra ==" not in r}


def test_requirement_names_are_read_whole() -> None:
    assert _requirement_name("mcp>=2.3,<3") == "mcp"
    assert _requirement_name("uvloop>=0.19; sys_platform != 'win32'") == "uvloop"
    assert _requirement_name("testcontainers[neo4j]>=4.8") == "testcontainers"
    assert _unconditional(["fastapi>=0.1; extra == 'server'", "numpy"]) == {"numpy"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("hatchling", reason="hatchling builds the wheel (test extra)")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("graphmem-*.whl")
    return built


def test_the_wheel_requires_nothing_heavy(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        meta_name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(z.read(meta_name).decode())
    requires = meta.get_all("Requires-Dist") or []
    unconditional = _unconditional(requires)
    assert unconditional, "the wheel lists no requirements at all"
    assert unconditional.isdisjoint(HEAVY), sorted(unconditional & set(HEAVY))
    server = {_requirement_name(r) for r in requires if "extra == 'server'" in r.replace('"', "'")}
    assert {"fastapi", "uvicorn", "mcp"} <= server


def test_the_wheel_ships_the_library_only(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert any(n.startswith("graphmem/wire.py") for n in names)
    assert any(n.startswith("graphmem/_cypher/") for n in names), "the named Cypher ships"
    assert "graphmem/py.typed" in names, "the PEP 561 marker ships: type checkers read the hints"
    assert "graphmem/reads/blocks/data/answer_head.npz" in names, "the fitted answer head ships"
    assert "graphmem/reads/blocks/data/plain_head.npz" in names, "so does the plain-text one"
    assert "graphmem/language/data/cldr_names_ko.tsv" in names, "names Korean translates"
    assert "graphmem/language/data/CLDR-LICENSE" in names, "with the licence they come under"
    assert not [n for n in names if "graphmem_bench" in n or n.startswith("tests/")]
