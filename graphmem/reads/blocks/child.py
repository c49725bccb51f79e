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

from graphmem.domain.block import ActiveRecord, RecordTable

__all__ = [
    "ChildBuilder",
    "SnapshotSource",
    "build_in_child",
    "load_arrays",
    "pack_records",
    "unpack_records",
    "unpack_table",
]

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
    return {
        "blob": np.frombuffer(b"".join(data), dtype=np.uint8),
        "ends": ends if len(ends) else np.zeros(0, dtype=np.int64),
    }


def pack_records(records: Sequence[ActiveRecord]) -> dict[str, np.ndarray]:
    """Records as flat columns: strings as one UTF-8 blob with end offsets, lists (the
    participants, the facts) as flat strings with a count per record."""
    cols: dict[str, np.ndarray] = {
        "pos": np.fromiter((r.pos for r in records), dtype=np.int64, count=len(records)),
        "keyed": np.fromiter((r.keyed for r in records), dtype=bool, count=len(records)),
        "has_observed": np.fromiter(
            (r.observed_at is not None for r in records), dtype=bool, count=len(records)
        ),
        "has_speaker": np.fromiter(
            (r.speaker is not None for r in records), dtype=bool, count=len(records)
        ),
        "n_participants": np.fromiter(
            (len(r.participants) for r in records), dtype=np.int32, count=len(records)
        ),
        "n_facts": np.fromiter((len(r.facts) for r in records), dtype=np.int32, count=len(records)),
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
        self.blob = np.ascontiguousarray(cols[f"{name}.blob"]).data  # a memoryview
        self.ends = cols[f"{name}.ends"].tolist()
        self.i = 0
        self.start = 0

    def take(self) -> str:
        end = self.ends[self.i]
        out = str(self.blob[self.start : end], "utf-8")
        self.i += 1
        self.start = end
        return out


def unpack_records(cols: dict[str, np.ndarray]) -> Iterator[ActiveRecord]:
    """The records ``pack_records`` packed, in order."""
    yield from unpack_table(cols)


def unpack_table(cols: dict[str, np.ndarray]) -> RecordTable:
    """The records ``pack_records`` packed, as the columns a snapshot keeps. A plain
    Python loop: the thread running it gives way to readers at every switch interval."""
    text, rid, obs, spk, part = (
        _Reader(cols, n) for n in ("text", "record_id", "observed_at", "speaker", "participants")
    )
    facts = [_Reader(cols, n) for n in _FACT_COLUMNS]
    s, r, v = facts
    ids, texts, observed, speakers, participants, fact_rows = [], [], [], [], [], []
    for has_obs, has_spk, n_p, n_f in zip(
        cols["has_observed"].tolist(),
        cols["has_speaker"].tolist(),
        cols["n_participants"].tolist(),
        cols["n_facts"].tolist(),
        strict=True,
    ):
        texts.append(text.take())
        ids.append(rid.take())
        o, sp = obs.take(), spk.take()
        observed.append(o if has_obs else None)
        speakers.append(sp if has_spk else None)
        participants.append(tuple(part.take() for _ in range(n_p)))
        fact_rows.append(tuple((s.take(), r.take(), v.take()) for _ in range(n_f)))
    return RecordTable.from_columns(
        cols["pos"].tolist(),
        ids,
        texts,
        observed,
        speakers,
        participants,
        fact_rows,
        cols["keyed"].tolist(),
    )


_SHM = "/dev/shm"
_PREFIX = "graphmem-snapshot-"


def ram_folder_available() -> bool:
    """Whether there is a RAM-backed folder to hand snapshots over in (Linux's
    /dev/shm). Without one the child builder is not used: record text must not be
    written to a disk."""
    return os.path.isdir(_SHM) and os.access(_SHM, os.W_OK)


def _scratch_dir() -> str:
    if not ram_folder_available():
        raise SnapshotBuildError("no RAM-backed folder (/dev/shm) to hand a snapshot over")
    # The child's pid in the name: a parent finds what a dead child left behind.
    return tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-", dir=_SHM)  # mode 0700


def remove_orphan_snapshots() -> None:
    """Remove the folders of snapshot builders that died before handing them over (each
    Memory does this when it opens: a dead process's folder may hold erased text)."""
    if not ram_folder_available():
        return
    for path in Path(_SHM).glob(f"{_PREFIX}*"):
        try:
            pid = int(path.name[len(_PREFIX) :].split("-", 1)[0])
            os.kill(pid, 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except (ValueError, PermissionError, OSError):
            continue


def build_in_child(source: SnapshotSource) -> tuple[dict[str, int], str]:
    """Runs in the child process: read the namespace's active view and build the index;
    returns the watermark it read and the folder holding the arrays (the caller loads
    and removes it)."""
    from graphmem.reads.blocks.index import FIELD_WEIGHTS, index_fields, snapshot_tokenizer
    from graphmem.reads.ranking import BM25F
    from graphmem.store.neo4j.store import Neo4jStore
    from graphmem.store.sealing import sealer_for

    store = _child_store(source, Neo4jStore, sealer_for)
    mark = dict(store.watermark(source.namespace))
    # One copy of the records, as columns: the driver's list is dropped at once.
    table = RecordTable(store.active_view(source.namespace))
    index = BM25F(
        list(index_fields(table)),
        FIELD_WEIGHTS,
        tokenize=snapshot_tokenizer(table, source.tokenizer),
    )
    arrays = {f"record.{k}": v for k, v in pack_records(table).items()}
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
        store = store_cls.connect(
            source.uri,
            auth=source.auth,
            database=source.database,
            timeout=source.timeout,
            sealer=sealer_for(source.seal_text, source.key_store, source.record_id_secret),
        )
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
            out[group][name] = np.load(path, mmap_mode="r" if big else None, allow_pickle=False)
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
    priority than the serving process. Started on first use; restarted after a crash.
    Builds are one at a time (the child is single-threaded)."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._closed = False

    def build(self, source: SnapshotSource) -> tuple[dict[str, int], str]:
        with self._lock:
            if self._closed:
                raise SnapshotBuildError("the snapshot builder was closed")
            proc = self._proc
            if proc is None or proc.poll() is not None:
                remove_orphan_snapshots()
                proc = self._proc = subprocess.Popen(
                    [sys.executable, "-m", "graphmem.reads.blocks.child"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                )
            assert proc.stdin is not None and proc.stdout is not None
            try:
                _send(proc.stdin, source)
                ok, payload = _receive(proc.stdout)
            except (EOFError, OSError, ValueError, MemoryError, pickle.UnpicklingError) as exc:
                self._kill(proc)
                raise SnapshotBuildError(f"the snapshot builder stopped: {exc}") from exc
        if not ok:
            raise SnapshotBuildError(payload)
        built: tuple[dict[str, int], str] = payload
        return built

    @staticmethod
    def _kill(proc: subprocess.Popen[bytes]) -> None:
        proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self) -> None:
        """Stop the child now, even in the middle of a build (which then fails): closing
        never waits for Neo4j."""
        self._closed = True
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            self._kill(proc)
        remove_orphan_snapshots()


def _serve() -> None:
    """The child's loop: one source in, (ok, (watermark, folder) or error text) out."""
    nice = getattr(os, "nice", None)
    if nice is not None:
        with contextlib.suppress(OSError):
            nice(10)  # readers in the serving process come first
    _die_with_parent()
    stdin = sys.stdin.buffer
    # Frames go to a copy of the pipe; file descriptor 1 becomes stderr, so nothing any
    # library prints, from Python or native code, can land between two frames.
    stdout = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    while True:
        try:
            source = _receive(stdin)
        except EOFError:
            return
        try:
            reply: tuple[bool, Any] = (True, build_in_child(source))
        except Exception as exc:  # reported to the parent, which keeps its snapshot
            reply = (False, f"{type(exc).__name__}: {exc}")
        try:
            _send(stdout, reply)
        except OSError:  # the parent is gone: leave no record text behind
            if reply[0]:
                shutil.rmtree(reply[1][1], ignore_errors=True)
            return


def _die_with_parent() -> None:
    """On Linux, ask the kernel to end this process when its parent dies."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes
        import signal

        ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG


if __name__ == "__main__":
    _serve()
