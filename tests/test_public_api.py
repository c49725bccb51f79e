"""The public surface is exactly ``graphmem.__all__``; everything else is private."""

import importlib
import pkgutil

import graphmem


def test_all_names_exist_and_are_sorted():
    for name in graphmem.__all__:
        assert hasattr(graphmem, name), name
    assert graphmem.__all__ == sorted(graphmem.__all__)


def test_no_public_name_is_missing_from_all():
    public = {n for n in vars(graphmem) if not n.startswith("_")}
    modules = {m.name for m in pkgutil.iter_modules(graphmem.__path__)}
    # Subpackages and modules are reachable as attributes once imported; they are not API.
    assert public - set(graphmem.__all__) - modules == set()


def test_every_error_derives_from_the_base():
    for name in graphmem.__all__:
        obj = getattr(graphmem, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, graphmem.GraphmemError), name


def test_modules_import_cleanly():
    for mod in pkgutil.walk_packages(graphmem.__path__, "graphmem."):
        importlib.import_module(mod.name)


# The second tier: modules the documentation sends users to for extension points (an
# LLM or embedder of their own, evidence controls, soft key identity, the service app).
# Each says what it exports; everything else under graphmem is implementation.
EXTENSION_MODULES = (
    "graphmem.domain.aliases",
    "graphmem.domain.soft_keys",
    "graphmem.embedding",
    "graphmem.llm",
    "graphmem.llm.testserver",
    "graphmem.reads.evidence",
    "graphmem.service",
)


def test_extension_modules_say_what_they_export():
    for name in EXTENSION_MODULES:
        mod = importlib.import_module(name)
        exported = getattr(mod, "__all__", None)
        assert exported, f"{name} has no __all__"
        for attr in exported:
            assert hasattr(mod, attr), f"{name}.{attr}"


def test_the_docs_send_users_only_to_the_two_tiers():
    """A module path the README or a user's page of the docs names (``from graphmem.x
    import y`` or ``graphmem.x.Y``) is graphmem itself or an extension module. The
    architecture and development pages describe the implementation and are exempt."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    pages = [p for p in pages if p.stem not in ("architecture", "development")]
    named: set[str] = set()
    for page in pages:
        text = page.read_text(encoding="utf-8")
        named |= set(re.findall(r"from (graphmem(?:\.[a-z_]+)+) import", text))
        for path in re.findall(r"`(graphmem(?:\.[a-z_]+)+)\.[A-Z]\w*", text):
            named.add(path)
    allowed = {"graphmem", *EXTENSION_MODULES}
    assert named, "the scanner found no module paths"
    assert named <= allowed, sorted(named - allowed)
