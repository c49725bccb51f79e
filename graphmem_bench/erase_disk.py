"""Erase on disk: how much of what was erased a running Neo4j still holds in its files,
and what ``graphmem neo4j stop`` (which compacts after erasures) costs and leaves.

One run per size on a scratch server that starts empty. Each record names a person by a
made-up word no other record uses (as subject, in its value and in its text), so a word
found in the data folder can only come from its record. A hundredth of the records is
erased; then every file of the data folder is read and the erased words counted:

- right after the erase, with the server running (Neo4j's own residue);
- after ``graphmem neo4j stop``, which rewrites the database first (must be 0);
- and the kept words, which must all still be there.
"""

from __future__ import annotations

import random
import re
import shutil
import string
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from graphmem import Fact, LocalNeo4j, Memory, Record
from graphmem_bench.serving import free_port

WORD = re.compile(rb"qz[a-z]{10}")


def _words(rng: random.Random, n: int) -> list[str]:
    out: set[str] = set()
    while len(out) < n:
        out.add("qz" + "".join(rng.choices(string.ascii_lowercase, k=10)))
    return sorted(out)


def _found(folder: Path) -> set[str]:
    """Every made-up word anywhere in the folder's bytes (case-folded: Lucene lowercases)."""
    seen: set[bytes] = set()
    for f in folder.rglob("*"):
        if f.is_file():
            seen.update(WORD.findall(f.read_bytes().lower()))
    return {w.decode() for w in seen}


def _size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def run_size(n: int, *, seed: int = 13, progress: Callable[[str], None] = print
             ) -> dict[str, Any]:
    rng = random.Random(seed + n)
    words = _words(rng, n)
    erased = set(rng.sample(words, max(1, n // 100)))
    scratch = Path(tempfile.mkdtemp(prefix="graphmem-erase-disk-"))
    server = LocalNeo4j(scratch / "neo4j", bolt_port=free_port(), http_port=free_port(),
                        heap="1g", pagecache="256m")
    try:
        server.start()
        ids = {w: f"r{i}" for i, w in enumerate(words)}
        t0 = time.perf_counter()
        with Memory.connect(server.bolt_url, "erase-disk") as mem:
            batch = [Record(text=f"{w.capitalize()} moved to {w}ville and keeps a cat.",
                            id=ids[w],
                            facts=(Fact(w.capitalize(), "home town", f"{w}ville"),))
                     for w in words]
            for i in range(0, n, 2000):
                mem.ingest(batch[i:i + 2000])
            ingest_s = time.perf_counter() - t0
            progress(f"{n:,} records written in {ingest_s:.1f} s")
            t0 = time.perf_counter()
            for w in sorted(erased):
                mem.erase(ids[w])
            erase_ms = (time.perf_counter() - t0) * 1000 / len(erased)
        data = server.data_dir
        before = _size(data / "data")
        running = _found(data) & erased
        progress(f"erased {len(erased)}; {len(running)} still readable in the running "
                 "server's files")
        exe = Path(sys.executable).with_name("graphmem")
        t0 = time.perf_counter()
        proc = subprocess.run([str(exe), "neo4j", "stop", "--data-dir", str(data),
                               "--bolt-port", str(server.bolt_port), "--http-port",
                               str(server.http_port)], capture_output=True, text=True,
                              check=False)
        stop_s = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(f"graphmem neo4j stop failed: {proc.stderr[-2000:]}")
        after = _found(data)
        res = {
            "records": n, "erased": len(erased), "ingest_s": ingest_s, "erase_ms": erase_ms,
            "running_found": len(running), "stopped_found": len(after & erased),
            "kept_found": len(after - erased), "kept": n - len(erased), "stop_s": stop_s,
            "bytes_before": before, "bytes_after": _size(data / "data"),
        }
        progress(f"after stop: {res['stopped_found']} erased, {res['kept_found']:,} kept "
                 f"words found; stop took {stop_s:.1f} s")
        return res
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def run(sizes: list[int], progress: Callable[[str], None] = print) -> list[dict[str, Any]]:
    return [run_size(n, progress=progress) for n in sizes]


def markdown(rows: list[dict[str, Any]], command: str) -> str:
    mib = 1024 * 1024
    body = "\n".join(
        f"| {r['records']:,} | {r['erased']} | {r['erase_ms']:.0f} | "
        f"{r['running_found']} ({r['running_found'] / r['erased']:.0%}) | "
        f"**{r['stopped_found']}** | {r['kept_found']:,} / {r['kept']:,} | {r['stop_s']:.1f} | "
        f"{r['bytes_before'] / mib:.0f} → {r['bytes_after'] / mib:.0f} |" for r in rows)
    return (
        f"Command: `{command}`\n\n"
        "Each record names a made-up word as subject, value and text; 1% of the records are "
        "erased. Words are counted in the bytes of every file of the server's data folder "
        "(case-folded). *Running*: right after the erases, the server still up (Neo4j's "
        "own residue: freed store records, Lucene segments, transaction logs). *After "
        "stop*: `graphmem neo4j stop`, which rewrites the database when records were "
        "erased since the last compaction; the stop time includes that rewrite and two "
        "restarts.\n\n"
        "| records | erased | erase ms each | erased words readable, running | after stop "
        "| kept words readable after stop | stop s | data folder MiB (before → after) |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|\n" + body + "\n")
