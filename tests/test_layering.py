"""The house rules, checked: what each layer may import, and what a light import loads."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ROOT / "graphmem"

DRIVERS = ("neo4j", "neomodel")
HTTP = ("fastapi", "starlette", "uvicorn", "httpx", "ollama", "pydantic", "mcp", "mcp_types")
BENCH = ("graphmem_bench", "bm25s", "matplotlib")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            # Relative imports would slip past these rules: the house uses none.
            assert node.level == 0, f"{path.name}: relative import"
            if node.module:
                out.add(node.module)
    return out


def _top(name: str) -> str:
    return name.split(".")[0]


def test_the_domain_imports_no_driver_http_or_benchmark():
    for path in sorted((PRODUCT / "domain").glob("*.py")):
        for name in _imports(path):
            assert _top(name) not in DRIVERS + HTTP + BENCH, f"{path.name} imports {name}"
            if _top(name) == "graphmem":
                # The domain stands on its own: only itself, plain text facts and errors.
                assert name.startswith(
                    ("graphmem.domain", "graphmem.language.text", "graphmem._errors")
                ), f"{path.name} imports {name}"


def test_nothing_in_the_product_imports_the_benchmarks():
    for path in sorted(PRODUCT.rglob("*.py")):
        for name in _imports(path):
            assert _top(name) not in BENCH, f"{path.relative_to(ROOT)} imports {name}"


def test_only_the_neo4j_adapter_and_the_schema_tools_touch_the_driver():
    allowed = {PRODUCT / "store" / "neo4j", PRODUCT / "local_neo4j"}
    for path in sorted(PRODUCT.rglob("*.py")):
        if any(a in path.parents for a in allowed):
            continue
        for name in _imports(path):
            assert _top(name) not in DRIVERS, f"{path.relative_to(ROOT)} imports {name}"


def _loaded_by(statement: str) -> set[str]:
    code = f"import sys; {statement}; print('\\n'.join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    return {_top(m) for m in out.split()}


def test_the_http_client_loads_no_driver_and_no_web_framework():
    loaded = _loaded_by("from graphmem import Client")
    web = {"neo4j", "neomodel", "fastapi", "starlette", "uvicorn", "mcp"}
    assert loaded.isdisjoint(web), loaded


def test_importing_graphmem_is_light():
    loaded = _loaded_by("import graphmem")
    assert loaded.isdisjoint({"neo4j", "neomodel", "fastapi", "httpx", "spacy", "kiwipiepy"})
