"""Building block snapshots in a child process, so readers keep the GIL.

Reading a namespace's active view out of Neo4j and tokenizing it is seconds of Python at
100k records (measured: 6 s decoding the driver's rows, 2.6 s building the index). In the
serving process that work competes with every request for the GIL. A child process does
it instead and hands back flat arrays (record columns and the index's postings) through
files in a private RAM-backed folder (``/dev/shm`` where there is one: record text never
touches the disk); the serving process maps them and turns them into records in a loop
that yields the GIL every few hundred microseconds.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.domain.block import ActiveRecord

__all__ = ["ChildBuilder", "SnapshotSource", "build_in_child", "load_arrays", "pack_records",
           "unpack_records"]

_FACT_COLUMNS = ("subject", "relation", "value")


@dataclass(frozen=True)
class SnapshotSource:
    """How a child process reaches the namespace: plain values, picklable."""

    uri: str
    namespace: str
    auth: tuple[str, str] | None = None
    database: str | None = None
    timeout: float = 2.0
    seal_text: bool = False
    key_store: str | None = None
    record_id_secret: str | None = None
    tokenizer: str = "morphemes"


def _strings(values: Sequence[str]) -> dict[str, np.ndarray]:
    data = [v.encode("utf-8") for v in values]
    ends = np.cumsum([len(d) for d in data], dtype=np.int64)
    return {"blob": np.frombuffer(b"".join(data), dtype=np.uint8),
            "ends": ends if len(ends) else np.zeros(0, dtype=np.int64)}


def pack_records(records: Sequence[ActiveRecord]) -> dict[str, np.ndarray]:
    """Records as flat columns: strings as one UTF-8 blob with end offsets, lists (the
    participants, the facts) as flat strings with a count per record."""
    cols: dict[str, np.ndarray] = {
        "pos": np.fromiter((r.pos for r in records), dtype=np.int64, count=len(records)),
        "keyed": np.fromiter((r.keyed for r in records), dtype=bool, count=len(records)),
        "has_observed": np.fromiter((r.observed_at is not None for r in records), dtype=bool,
                                    count=len(records)),
        "has_speaker": np.fromiter((r.speaker is not None for r in records), dtype=bool,
                                   count=len(records)),
        "n_participants": np.fromiter((len(r.participants) for r in records), dtype=np.int32,
                                      count=len(records)),
        "n_facts": np.fromiter((len(r.facts) for r in records), dtype=np.int32,
                               count=len(records)),
    }
    columns: dict[str, list[str]] = {
        "text": [r.text for r in records],
        "record_id": [r.record_id for r in records],
        "observed_at": [r.observed_at or "" for r in records],
        "speaker": [r.speaker or "" for r in records],
        "participants": [p for r in records for p in r.participants],
    }
    for i, name in enumerate(_FACT_COLUMNS):
        columns[name] = [f[i] for r in records for f in r.facts]
    for name, values in columns.items():
        for part, arr in _strings(values).items():
            cols[f"{name}.{part}"] = arr
    return cols


class _Reader:
    """Sequential reads of one packed string column."""

    def __init__(self, cols: dict[str, np.ndarray], name: str) -> None:
        self.blob = memoryview(np.ascontiguousarray(cols[f"{name}.blob"]))
        self.ends = cols[f"{name}.ends"].tolist()
        self.i = 0
        self.start = 0

    def take(self) -> str:
        end = self.ends[self.i]
        out = str(self.blob[self.start:end], "utf-8")
        self.i += 1
        self.start = end
        return out


def unpack_records(cols: dict[str, np.ndarray]) -> Iterator[ActiveRecord]:
    """The records ``pack_records`` packed, in order. A plain Python loop: the thread
    running it gives way to readers at every switch interval."""
    text, rid, obs, spk, part = (_Reader(cols, n) for n in
                                 ("text", "record_id", "observed_at", "speaker",
                                  "participants"))
    facts = [_Reader(cols, n) for n in _FACT_COLUMNS]
    s, r, v = facts
    for pos, keyed, has_obs, has_spk, n_p, n_f in zip(
            cols["pos"].tolist(), cols["keyed"].tolist(), cols["has_observed"].tolist(),
            cols["has_speaker"].tolist(), cols["n_participants"].tolist(),
            cols["n_facts"].tolist(), strict=True):
        t, i, o, sp = text.take(), rid.take(), obs.take(), spk.take()
        yield ActiveRecord(
            pos=pos, record_id=i, text=t, observed_at=o if has_obs else None,
            participants=tuple(part.take() for _ in range(n_p)),
            speaker=sp if has_spk else None,
            facts=tuple((s.take(), r.take(), v.take()) for _ in range(n_f)), keyed=keyed)


def _scratch_dir() -> str:
    shm = "/dev/shm"
    base = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None
    return tempfile.mkdtemp(prefix="graphmem-snapshot-", dir=base)  # mode 0700


def build_in_child(source: SnapshotSource) -> tuple[dict[str, int], str]:
    """Runs in the child process: read the namespace's active view and build the index;
    returns the watermark it read and the folder holding the arrays (the caller loads
    and removes it)."""
    from graphmem.reads.blocks import FIELD_WEIGHTS, _fields, snapshot_tokenizer
    from graphmem.reads.ranking import BM25F
    from graphmem.store.neo4j.store import Neo4jStore
    from graphmem.store.sealing import sealer_for

    store = _child_store(source, Neo4jStore, sealer_for)
    mark = dict(store.watermark(source.namespace))
    records = store.active_view(source.namespace)
    index = BM25F([_fields(r) for r in records], FIELD_WEIGHTS,
                  tokenize=snapshot_tokenizer(records, source.tokenizer))
    arrays = {f"record.{k}": v for k, v in pack_records(records).items()}
    arrays.update({f"index.{k}": v for k, v in index.arrays().items()})
    folder = _scratch_dir()
    try:
        for name, arr in arrays.items():
            np.save(Path(folder) / f"{name}.npy", arr, allow_pickle=False)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return mark, folder


_STORES: dict[SnapshotSource, Any] = {}


def _child_store(source: SnapshotSource, store_cls: Any, sealer_for: Any) -> Any:
    """One driver per source for the child's lifetime (it builds again and again)."""
    store = _STORES.get(source)
    if store is None:
        store = store_cls.connect(source.uri, auth=source.auth, database=source.database,
                                  timeout=source.timeout,
                                  sealer=sealer_for(source.seal_text, source.key_store,
                                                    source.record_id_secret))
        _STORES[source] = store
    return store


def load_arrays(folder: str) -> dict[str, dict[str, np.ndarray]]:
    """The arrays ``build_in_child`` wrote, memory-mapped; the folder is removed (the
    mappings keep the data until they are dropped)."""
    out: dict[str, dict[str, np.ndarray]] = {"record": {}, "index": {}}
    try:
        for path in Path(folder).glob("*.npy"):
            group, name = path.stem.split(".", 1)
            big = path.stat().st_size > 1 << 20  # an empty array cannot be mapped
            out[group][name] = np.load(path, mmap_mode="r" if big else None,
                                       allow_pickle=False)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


# -- the child process ---------------------------------------------------------------------
# A plain subprocess speaking length-prefixed pickles over its stdin and stdout, not
# multiprocessing: spawning through multiprocessing re-imports the caller's main script,
# which breaks scripts without an ``if __name__ == "__main__"`` guard.
_FRAME = struct.Struct("!Q")


def _send(stream: Any, obj: object) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_FRAME.pack(len(data)) + data)
    stream.flush()


def _receive(stream: Any) -> Any:
    head = stream.read(_FRAME.size)
    if len(head) < _FRAME.size:
        raise EOFError("the snapshot builder closed its pipe")
    (size,) = _FRAME.unpack(head)
    return pickle.loads(stream.read(size))


class SnapshotBuildError(RuntimeError):
    """The child process could not build a snapshot (its message says why)."""


class ChildBuilder:
    """One long-lived child process that builds snapshots on request, at a lower CPU
    priority than the serving process. Started on first use; restarted after a crash."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def build(self, source: SnapshotSource) -> tuple[dict[str, int], str]:
        with self._lock:
            proc = self._proc
            if proc is None or proc.poll() is not None:
                proc = self._proc = subprocess.Popen(
                    [sys.executable, "-m", "graphmem.reads.snapshot_build"],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            assert proc.stdin is not None and proc.stdout is not None
            try:
                _send(proc.stdin, source)
                ok, payload = _receive(proc.stdout)
            except (EOFError, OSError, pickle.UnpicklingError) as exc:
                self._stop(proc)
                raise SnapshotBuildError(f"the snapshot builder stopped: {exc}") from exc
        if not ok:
            raise SnapshotBuildError(payload)
        return payload

    @staticmethod
    def _stop(proc: subprocess.Popen[bytes]) -> None:
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def close(self) -> None:
        with self._lock:
            if self._proc is not None:
                self._stop(self._proc)
                self._proc = None


def _serve() -> None:
    """The child's loop: one source in, (ok, (watermark, folder) or error text) out."""
    with contextlib.suppress(OSError):
        os.nice(10)  # readers in the serving process come first
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but frames on the pipe
    while True:
        try:
            source = _receive(stdin)
        except EOFError:
            return
        try:
            reply: tuple[bool, Any] = (True, build_in_child(source))
        except Exception as exc:  # reported to the parent, which keeps its snapshot
            reply = (False, f"{type(exc).__name__}: {exc}")
        _send(stdout, reply)


if __name__ == "__main__":
    _serve()
