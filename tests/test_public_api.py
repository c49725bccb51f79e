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
