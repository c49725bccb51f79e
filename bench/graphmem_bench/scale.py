"""How cost grows with the store: a sweep of generated stores up to a million records.

Each size gets its own namespace holding two kinds of records, half each:

* FactConsolidation-like facts: ``The <relation> of <subject> is <value>.``, keyed, each
  key restated with new values (so most versions are superseded, as in the counterfactual
  edit chains of FactConsolidation);
* chat records from the personal-memory generator (the block study): people with namesakes,
  fillers, and the requests a block is measured on.

Measured at each size: ingest rate, ``evidence`` p50/p95 (questions about current facts),
block p50/p99 from the snapshot and fresh from Neo4j, a deadline run under a writer, the
snapshot's build time in a thread and in the child process, the serving process's
resident memory with the snapshot, the child's peak, and the Neo4j store's growth on disk.
"""

from __future__ import annotations

import random
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from graphmem.domain.model import Fact, Record
from graphmem.memory import Memory
from graphmem_bench.personal import generate
from graphmem_bench.scoring import percentile

Connect = Callable[..., Memory]

RELATIONS = (
    "employer",
    "headquarters",
    "citizenship",
    "spouse",
    "capital",
    "author",
    "home city",
    "sport",
    "language",
    "owner",
    "coach",
    "league",
    "founder",
    "religion",
    "currency",
    "anthem",
    "director",
    "composer",
    "chairperson",
    "member of",
)


def fact_records(n: int, seed: int = 0) -> Iterator[Record]:
    """``n`` keyed fact records over n / 4 keys: every key is stated, then restated."""
    rng = random.Random(seed)
    keys = max(1, n // 4)
    stated: set[int] = set()
    for i in range(n):
        k = rng.randrange(keys)
        subject = f"Entity {k:07d}"
        relation = RELATIONS[k % len(RELATIONS)]
        value = f"Value {rng.randrange(10 * n):08d}"
        intent = "update" if k in stated else "assert"
        stated.add(k)
        yield Record(
            f"The {relation} of {subject} is {value}.",
            id=f"scale-fact-{i}",
            observed_at=f"2025-{1 + i * 12 // n:02d}-01",
            facts=(Fact(subject, relation, value, intent),),
        )


def _status_mb(field: str, pid: int | str = "self") -> float:
    """A memory figure of a process from /proc (VmRSS: resident now, VmHWM: its peak)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _rss_mb() -> float:
    return _status_mb("VmRSS")


def _du_mb(path: Path) -> float:
    out = subprocess.run(["du", "-sm", str(path)], capture_output=True, text=True, check=False)
    return float(out.stdout.split()[0]) if out.returncode == 0 and out.stdout else float("nan")


def _store_dir() -> Path | None:
    from graphmem.local_neo4j import LocalNeo4j

    d = LocalNeo4j().data_dir / "data"
    return d if d.exists() else None


def wait_overshoot(seconds: float, step: float = 0.002) -> list[float]:
    """How late a bare ``Event.wait(step)`` returns, in ms: the floor under any
    deadline in this process, measured beside the deadline run."""
    ev, out = threading.Event(), []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.perf_counter()
        ev.wait(step)
        out.append((time.perf_counter() - t - step) * 1000)
    return out


def one_size(
    connect: Connect,
    size: int,
    progress: Callable[[str], None],
    requests: int = 200,
    questions: int = 200,
    deadline_ms: float = 10.0,
    writer_rate: int = 200,
    writer_seconds: float = 30.0,
) -> dict[str, Any]:
    """Build a store of ``size`` records and measure it (see the module docstring)."""
    from graphmem_bench.blocks_run import _writer_process

    half = size // 2
    inst = generate(0, "en", n_fillers=max(0, size - half - 474))
    facts = list(fact_records(size - len(inst.records), seed=size))
    ns = f"scale-{size}-{uuid.uuid4().hex[:6]}"
    store_dir = _store_dir()
    disk0 = _du_mb(store_dir) if store_dir else float("nan")
    mem = connect(ns)
    row: dict[str, Any] = {"records": len(inst.records) + len(facts)}
    try:
        t0 = time.perf_counter()
        batch = 5000
        chat, fc = inst.records, facts
        # Interleaved, as a store that hears both kinds over time.
        for i in range(0, max(len(chat), len(fc)), batch):
            mem.ingest(chat[i : i + batch] + fc[i : i + batch], batch_size=batch)
            done = min(len(chat), i + batch) + min(len(fc), i + batch)
            if (i // batch) % 20 == 0:
                progress(f"scale {size}: ingested {done:,} records")
        row["ingest_s"] = time.perf_counter() - t0
        row["ingest_rate"] = row["records"] / row["ingest_s"]
        row["store_mb"] = (_du_mb(store_dir) - disk0) if store_dir else float("nan")

        rss0 = _rss_mb()
        t = time.perf_counter()
        mem.block("warm up", "nobody")  # the first snapshot, built in this thread
        row["build_thread_s"] = time.perf_counter() - t
        row["rss_mb"] = _rss_mb()
        row["snapshot_mb"] = row["rss_mb"] - rss0
        server = mem._blocks
        assert server is not None
        # A small write, then a rebuild in the child process (what the publisher does).
        mem.ingest([Record("Scale probe: nothing to see.", id=f"probe-{ns}")])
        builder = server.builder
        server.builder = "process"
        t = time.perf_counter()
        server.refresh()
        row["build_child_s"] = time.perf_counter() - t
        server.builder = builder
        child = server._child._proc if server._child else None
        row["child_peak_mb"] = _status_mb("VmHWM", child.pid) if child else float("nan")
        row["rss_after_child_mb"] = _rss_mb()

        rng = random.Random(size)
        keys = rng.sample(facts, min(questions, len(facts)))
        ev = []
        for rec in keys:
            f = rec.facts[0]
            t = time.perf_counter()
            mem.evidence(f"What is the {f.relation} of {f.subject}?")
            ev.append((time.perf_counter() - t) * 1000)
        row["evidence_p50"], row["evidence_p95"] = percentile(ev, 0.5), percentile(ev, 0.95)

        reqs = inst.requests[:requests]
        for rq in reqs[:20]:  # each person's text is read once per snapshot
            mem.block(rq.text, rq.partner, now=rq.now)
        snap = [mem.block(rq.text, rq.partner, now=rq.now).latency_ms for rq in reqs]
        fresh = [
            mem.block(rq.text, rq.partner, now=rq.now, fresh=True, deadline_ms=10_000).latency_ms
            for rq in reqs
        ]
        row.update(
            snapshot_p50=percentile(snap, 0.5),
            snapshot_p99=percentile(snap, 0.99),
            fresh_p50=percentile(fresh, 0.5),
            fresh_p99=percentile(fresh, 0.99),
        )
        progress(f"scale {size}: {row}")
        row.update(
            _deadline_run(mem, ns, inst, writer_rate, writer_seconds, deadline_ms, _writer_process)
        )
        progress(f"scale {size} deadline: {row}")
    finally:
        mem.close()
    return row


def _deadline_run(
    mem: Memory,
    ns: str,
    inst: Any,
    rate: int,
    seconds: float,
    deadline_ms: float,
    writer: Callable[..., None],
) -> dict[str, Any]:
    """Fresh blocks with a deadline while another process writes ``rate`` facts/s; the
    same loop also times a bare wait, the floor the machine sets under any deadline."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    stop, written = ctx.Event(), ctx.Value("i", 0)
    proc = ctx.Process(
        target=writer, args=(mem.config.neo4j_uri, ns, rate, stop, written), daemon=True
    )
    proc.start()
    time.sleep(2.0)
    w0, t0 = written.value, time.perf_counter()
    over, floor, fell, snap = [], [], 0, []
    ev = threading.Event()
    k = 0
    while time.perf_counter() - t0 < seconds:
        rq = inst.requests[k % len(inst.requests)]
        k += 1
        b = mem.block(rq.text, rq.partner, now=rq.now, fresh=True, deadline_ms=deadline_ms)
        over.append(max(0.0, b.latency_ms - deadline_ms))
        fell += b.fell_back
        snap.append(mem.block(rq.text, rq.partner, now=rq.now).latency_ms)
        t = time.perf_counter()
        ev.wait(0.002)
        floor.append(max(0.0, (time.perf_counter() - t) * 1000 - 2.0))
    elapsed = time.perf_counter() - t0
    rate_seen = (written.value - w0) / elapsed
    stop.set()
    proc.join(timeout=60)
    return {
        "write_rate": rate_seen,
        "deadline_requests": len(over),
        "fallback_rate": fell / max(1, len(over)),
        "overrun_p99": percentile(over, 0.99),
        "overrun_max": max(over, default=0.0),
        "overrun_over_1ms": sum(o > 1 for o in over) / max(1, len(over)),
        "floor_p99": percentile(floor, 0.99),
        "floor_max": max(floor, default=0.0),
        "floor_over_1ms": sum(o > 1 for o in floor) / max(1, len(floor)),
        "loaded_snapshot_p99": percentile(snap, 0.99),
    }


def sweep(
    connect: Connect, sizes: list[int], progress: Callable[[str], None], **kw: Any
) -> list[dict[str, Any]]:
    return [one_size(connect, s, progress, **kw) for s in sizes]


_COLUMNS = (
    ("records", "records", "{:,}"),
    ("ingest_rate", "ingest rec/s", "{:,.0f}"),
    ("store_mb", "Neo4j +MB", "{:,.0f}"),
    ("evidence_p50", "evidence p50 ms", "{:.1f}"),
    ("evidence_p95", "p95", "{:.1f}"),
    ("snapshot_p50", "block snapshot p50 ms", "{:.2f}"),
    ("snapshot_p99", "p99", "{:.2f}"),
    ("fresh_p50", "block fresh p50 ms", "{:.1f}"),
    ("fresh_p99", "p99", "{:.1f}"),
    ("build_thread_s", "build, thread s", "{:.1f}"),
    ("build_child_s", "build, child s", "{:.1f}"),
    ("snapshot_mb", "snapshot MB", "{:,.0f}"),
    ("rss_mb", "RSS MB", "{:,.0f}"),
    ("child_peak_mb", "child peak MB", "{:,.0f}"),
)
_DEADLINE = (
    ("records", "records", "{:,}"),
    ("write_rate", "writer facts/s", "{:.0f}"),
    ("deadline_requests", "requests", "{:,}"),
    ("fallback_rate", "fell back", "{:.3f}"),
    ("overrun_p99", "overrun p99 ms", "{:.2f}"),
    ("overrun_max", "overrun max ms", "{:.1f}"),
    ("overrun_over_1ms", "share > 1 ms", "{:.3f}"),
    ("floor_p99", "bare wait late p99 ms", "{:.2f}"),
    ("floor_max", "max ms", "{:.1f}"),
    ("floor_over_1ms", "share > 1 ms", "{:.3f}"),
    ("loaded_snapshot_p99", "snapshot p99 under writer ms", "{:.2f}"),
)


def _table(rows: list[dict[str, Any]], cols: tuple[tuple[str, str, str], ...]) -> str:
    head = "| " + " | ".join(c[1] for c in cols) + " |"
    rule = "|" + "|".join("---:" for _ in cols) + "|"
    body = [
        "| " + " | ".join(fmt.format(r.get(k, float("nan"))) for k, _, fmt in cols) + " |"
        for r in rows
    ]
    return "\n".join([head, rule, *body])


def markdown(rows: list[dict[str, Any]], command: str) -> str:
    return (
        f"### Scale sweep\n\n`{command}`\n\n"
        "Each size is its own namespace: half FactConsolidation-like keyed facts (each "
        "key restated), half chat records with namesakes from the personal-memory generator. "
        "Evidence: questions about current facts. Blocks: the generator's requests, "
        "from the snapshot and fresh from Neo4j (no deadline). *snapshot MB*: resident "
        "memory the first snapshot added to the serving process; *child peak*: the "
        "build process's peak.\n\n"
        + _table(rows, _COLUMNS)
        + "\n\nFresh blocks with a 10 ms deadline while another process writes facts "
        "(`overrun`: how far past the deadline a block returned). *Bare wait*: in the "
        "same loop, how late a plain 2 ms `Event.wait` returned: the machine's own "
        "wake-up latency, a floor no deadline in this process can beat.\n\n"
        + _table(rows, _DEADLINE)
        + "\n"
    )


def plots(rows: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    xs = [r["records"] for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    ax = axes[0]
    for key, label in (
        ("snapshot_p50", "block snapshot p50"),
        ("snapshot_p99", "block snapshot p99"),
        ("fresh_p50", "block fresh p50"),
        ("evidence_p95", "evidence p95"),
    ):
        ax.plot(xs, [r[key] for r in rows], marker="o", label=label)
    ax.set(xscale="log", yscale="log", xlabel="records", ylabel="ms", title="latency")
    ax.legend(fontsize=8)
    ax = axes[1]
    for key, label in (
        ("build_thread_s", "snapshot build, thread"),
        ("build_child_s", "snapshot build, child process"),
        ("ingest_s", "ingest"),
    ):
        ax.plot(xs, [r[key] for r in rows], marker="o", label=label)
    ax.set(xscale="log", yscale="log", xlabel="records", ylabel="s", title="build and ingest")
    ax.legend(fontsize=8)
    ax = axes[2]
    for key, label in (
        ("snapshot_mb", "snapshot in serving process"),
        ("child_peak_mb", "build child peak"),
        ("store_mb", "Neo4j on disk"),
    ):
        ax.plot(xs, [r[key] for r in rows], marker="o", label=label)
    ax.set(xscale="log", yscale="log", xlabel="records", ylabel="MB", title="memory and disk")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / "scale.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]
