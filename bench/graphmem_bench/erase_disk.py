"""Erase on disk: how much of what was erased a running Neo4j still holds in its files,
and what ``graphmem neo4j stop`` (which compacts after erasures) costs and leaves.

One run per size and storage mode (plain text, and ``seal_text``) on a scratch server
that starts empty. Each record carries two made-up words no other record uses: one is the
subject and the value of its fact (and is in its text), the other is only in its text. A
word found in the data folder can only come from its record. A hundredth of the records
is erased; then every file of the data folder is read and the erased words counted:

- right after the erase, with the server running (Neo4j's own residue), for the words of
  the facts and for the words only in the text;
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


def run_size(
    n: int, *, sealed: bool = False, seed: int = 13, progress: Callable[[str], None] = print
) -> dict[str, Any]:
    rng = random.Random(seed + n)
    both = _words(rng, 2 * n)
    rng.shuffle(both)
    words, text_words = both[:n], dict(zip(both[:n], both[n:], strict=True))
    erased = set(rng.sample(words, max(1, n // 100)))
    erased_text = {text_words[w] for w in erased}
    scratch = Path(tempfile.mkdtemp(prefix="graphmem-erase-disk-"))
    server = LocalNeo4j(
        scratch / "neo4j", bolt_port=free_port(), http_port=free_port(), heap="1g", pagecache="256m"
    )
    try:
        server.start()
        ids = {w: f"r{i}" for i, w in enumerate(words)}
        t0 = time.perf_counter()
        with Memory.connect(
            server.bolt_url, "erase-disk", seal_text=sealed, key_store=str(scratch / "keys.sqlite3")
        ) as mem:
            batch = [
                Record(
                    text=f"{w.capitalize()} moved to {w}ville and keeps a cat "
                    f"called {text_words[w]}.",
                    id=ids[w],
                    facts=(Fact(w.capitalize(), "home town", f"{w}ville"),),
                )
                for w in words
            ]
            for i in range(0, n, 2000):
                mem.ingest(batch[i : i + 2000])
            ingest_s = time.perf_counter() - t0
            progress(f"{n:,} records written in {ingest_s:.1f} s")
            t0 = time.perf_counter()
            for w in sorted(erased):
                mem.erase(ids[w])
            erase_ms = (time.perf_counter() - t0) * 1000 / len(erased)
        data = server.data_dir
        before = _size(data / "data")
        found = _found(data)
        running, running_text = found & erased, found & erased_text
        progress(
            f"{'sealed' if sealed else 'plain'}: erased {len(erased)}; fact words "
            f"{len(running)}, text-only words {len(running_text)} still readable in the "
            "running server's files"
        )
        exe = Path(sys.executable).with_name("graphmem")
        t0 = time.perf_counter()
        proc = subprocess.run(
            [
                str(exe),
                "neo4j",
                "stop",
                "--data-dir",
                str(data),
                "--bolt-port",
                str(server.bolt_port),
                "--http-port",
                str(server.http_port),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        stop_s = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(f"graphmem neo4j stop failed: {proc.stderr[-2000:]}")
        after = _found(data)
        kept = (set(words) - erased) | ({text_words[w] for w in words} - erased_text)
        res = {
            "records": n,
            "sealed": sealed,
            "erased": len(erased),
            "ingest_s": ingest_s,
            "erase_ms": erase_ms,
            "running_found": len(running),
            "running_text_found": len(running_text),
            "stopped_found": len(after & (erased | erased_text)),
            "kept_found": len(after & kept) if not sealed else len(after & set(words)),
            "kept": len(kept) if not sealed else n - len(erased),
            "stop_s": stop_s,
            "bytes_before": before,
            "bytes_after": _size(data / "data"),
        }
        progress(
            f"after stop: {res['stopped_found']} erased, {res['kept_found']:,} kept "
            f"words found; stop took {stop_s:.1f} s"
        )
        return res
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def run(sizes: list[int], progress: Callable[[str], None] = print) -> list[dict[str, Any]]:
    return [
        run_size(n, sealed=sealed, progress=progress) for n in sizes for sealed in (False, True)
    ]


def markdown(rows: list[dict[str, Any]], command: str) -> str:
    mib = 1024 * 1024
    body = "\n".join(
        f"| {r['records']:,} | {'sealed' if r['sealed'] else 'plain'} | {r['erased']} | "
        f"{r['ingest_s']:.1f} | {r['erase_ms']:.0f} | "
        f"{r['running_text_found']} ({r['running_text_found'] / r['erased']:.0%}) | "
        f"{r['running_found']} ({r['running_found'] / r['erased']:.0%}) | "
        f"**{r['stopped_found']}** | {r['kept_found']:,} / {r['kept']:,} | {r['stop_s']:.1f} | "
        f"{r['bytes_before'] / mib:.0f} → {r['bytes_after'] / mib:.0f} |"
        for r in rows
    )
    return (
        f"Command: `{command}`\n\n"
        "Each record carries two made-up words: a *fact word* (subject and value of its "
        "fact, and in its text) and a *text word* (only in its text). 1% of the records "
        "are erased. Words are counted in the bytes of every file of the server's data "
        "folder (case-folded). *Running*: right after the erases, the server still up "
        "(Neo4j's own residue: freed store records, Lucene segments, transaction logs). "
        "*After stop*: `graphmem neo4j stop`, which rewrites the database when records "
        "were erased since the last compaction (the stop time includes that rewrite and "
        "two restarts). *Sealed*: `seal_text=True`, record text encrypted with a key per "
        "record kept outside Neo4j and destroyed on erase; kept words after stop count "
        "fact words only there (text words are never readable on disk).\n\n"
        "| records | text | erased | ingest s | erase ms each | erased text words "
        "readable, running | erased fact words readable, running | erased words after stop "
        "| kept words readable after stop | stop s | data folder MiB (before → after) |\n"
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" + body + "\n"
    )
