"""Runs the personal-memory controlled benchmark (the block study) and LoCoMo through
``Memory.block`` on the real Neo4j, and renders the tables and plots.

Every arm ingests a generated instance into its own namespace and scores each block
with ``block_metrics`` — the block, not a final answer, is judged.
"""

from __future__ import annotations

import re
import statistics
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from graphmem.domain.keys import RelationRegistry
from graphmem.domain.model import Fact, Record
from graphmem.memory import Memory
from graphmem_bench import block_metrics as bm
from graphmem_bench.personal import Instance, generate
from graphmem_bench.scoring import percentile

Connect = Callable[..., Memory]  # (namespace, **MemoryConfig overrides)


def run_arm(
    connect: Connect,
    inst: Instance,
    *,
    identity: str = "posterior",
    gate: str = "slot",
    deadline_ms: float | None = None,
    fresh: bool = False,
    strip_stated: bool = False,
    label: str = "",
    tokenizer: str = "morphemes",
    extractor: str | None = None,
    declare_slots: bool = False,
) -> dict[str, Any]:
    """Ingest one instance, serve every request, aggregate the block metrics.

    ``extractor`` reads the records' text (the text-only arms: records carry no facts);
    ``declare_slots`` declares the six slots in the namespace's registry, as a user who
    wants these attributes keyed would."""
    overrides: dict[str, Any] = {"block_tokenizer": tokenizer}
    if extractor:
        overrides["extractor"] = extractor
    if declare_slots:
        overrides["registry"] = slot_registry()
    mem = connect(f"blk-{label or 'arm'}-{uuid.uuid4().hex[:8]}", **overrides)
    try:
        records = inst.records
        if strip_stated:  # arrival order decides: the records' own dates are ignored
            records = [replace(r, stated_at=None) for r in records]
        mem.ingest(records)
        mem.block("warm up", "nobody")  # starts the snapshot publisher
        scores, lat = [], []
        for rq in inst.requests:
            b = mem.block(
                rq.text,
                rq.partner,
                now=rq.now,
                deadline_ms=deadline_ms or 10,
                fresh=fresh,
                identity=identity,
                gate=gate,
            )
            lat.append(b.latency_ms)
            scores.append(
                bm.score_block(b.line_texts, rq, latency_ms=b.latency_ms, deadline_ms=deadline_ms)
            )
        out = bm.aggregate(scores)
        out["latency"] = lat
        out["current_lost"] = _current_lost(mem, inst)
        return out
    finally:
        mem.close()


def _current_lost(mem: Memory, inst: Instance) -> float:
    """Share of answerable requests whose answer is no longer the key's current value."""
    ans = [r for r in inst.requests if r.answerable and r.entity]
    lost = 0
    for r in ans:
        lost += mem.why(r.entity, r.slot).value != r.answer  # type: ignore[arg-type]
    return lost / len(ans) if ans else 0.0


def slot_registry() -> RelationRegistry:
    """The six benchmark slots as a user would declare them: a name, a value type and
    the everyday words for it (the meeting nouns announce a meeting's time and room)."""
    reg = RelationRegistry()
    meeting_en = ["standup", "stand-up", "sync", "weekly sync", "planning meeting", "meeting"]
    meeting_ko = ["스탠드업", "주간 회의", "기획 미팅", "회의", "미팅"]
    reg.declare(
        "meeting time",
        synonyms=[*meeting_en, *meeting_ko, "meeting time", "time"],
        value_type="time",
    )
    reg.declare(
        "meeting room",
        synonyms=["room", "meeting room", "회의실", "회의 장소", "장소"],
        value_type="room",
    )
    reg.declare(
        "day rate",
        synonyms=["day rate", "daily rate", "rate", "일당", "일급", "단가", "price"],
        value_type="rate",
    )
    reg.declare(
        "deadline",
        synonyms=["deadline", "due", "마감", "마감일", "데드라인", "기한"],
        value_type="date",
    )
    reg.declare(
        "launch date",
        synonyms=["launch", "release", "go-live", "출시", "출시일", "런칭"],
        value_type="date",
    )
    reg.declare(
        "budget cap",
        synonyms=["budget", "budget cap", "cap", "예산", "예산 한도", "버짓", "한도"],
        value_type="money",
    )
    return reg


@dataclass
class BlockBench:
    rows: list[dict[str, Any]] = field(default_factory=list)
    noise: dict[tuple[float, float], dict[str, float]] = field(default_factory=dict)
    latency: list[dict[str, Any]] = field(default_factory=list)
    load: dict[str, Any] = field(default_factory=dict)
    locomo: list[dict[str, Any]] = field(default_factory=list)


def _mean_of(runs: list[dict[str, Any]], key: str, sub: str | None = None) -> float:
    vals = []
    for r in runs:
        v = r["slices"][sub][key] if sub else r[key]
        if v is not None:
            vals.append(v)
    return statistics.mean(vals) if vals else float("nan")


def main_arms(
    connect: Connect, seeds: list[int], lang: str, progress: Callable[[str], None]
) -> list[dict[str, Any]]:
    arms = [
        ("unkeyed", dict(keyed=False), dict(identity="none", gate="none")),
        ("keyed", {}, dict(identity="none", gate="none")),
        ("keyed + hard filter (a name means the partner)", {}, dict(identity="hard", gate="none")),
        ("keyed + identity posterior", {}, dict(identity="posterior", gate="none")),
        ("keyed + posterior + slot gate", {}, dict(identity="posterior", gate="slot")),
        (
            "… same, character bigrams instead of morphemes",
            {},
            dict(identity="posterior", gate="slot", tokenizer="bigrams"),
        ),
        ("keyed + posterior + margin gate", {}, dict(identity="posterior", gate="margin")),
        (
            "keyed + posterior + reading gate (the default)",
            {},
            dict(identity="posterior", gate="reading"),
        ),
        (
            "out-of-order 30%, arrival order",
            dict(out_of_order=0.3),
            dict(identity="posterior", gate="none", strip_stated=True),
        ),
        (
            "out-of-order 30%, stated-time order",
            dict(out_of_order=0.3),
            dict(identity="posterior", gate="none"),
        ),
        ("hard slice + slot gate", dict(hard_slice=True), dict(identity="posterior", gate="slot")),
        (
            "hard slice + margin gate",
            dict(hard_slice=True),
            dict(identity="posterior", gate="margin"),
        ),
        (
            "hard slice + reading gate",
            dict(hard_slice=True),
            dict(identity="posterior", gate="reading"),
        ),
        ("hard slice, no gate", dict(hard_slice=True), dict(identity="posterior", gate="none")),
        (
            "text only, chat extractor, dev paraphrases (read while building)",
            dict(keyed=False, paraphrased=True),
            dict(identity="posterior", gate="none", extractor="chat"),
        ),
        (
            "text only, chat extractor, held-out paraphrases",
            dict(keyed=False, paraphrased=True, paraphrase_set="heldout"),
            dict(identity="posterior", gate="none", extractor="chat"),
        ),
        (
            "text only, chat extractor, held-out paraphrases, slots declared + slot gate",
            dict(keyed=False, paraphrased=True, paraphrase_set="heldout"),
            dict(identity="posterior", gate="slot", extractor="chat", declare_slots=True),
        ),
        (
            "text only, no extractor, held-out paraphrases",
            dict(keyed=False, paraphrased=True, paraphrase_set="heldout"),
            dict(identity="posterior", gate="none"),
        ),
    ]
    rows = []
    for name, gen_kw, arm_kw in arms:
        runs = []
        for seed in seeds:
            inst = generate(seed, lang, **gen_kw)
            runs.append(run_arm(connect, inst, label=f"{lang}{seed}", **arm_kw))
        lat = [x for r in runs for x in r["latency"]]
        row = {
            "lang": lang,
            "arm": name,
            "n": sum(r["n"] for r in runs),
            "recall": _mean_of(runs, "recall"),
            "stale": _mean_of(runs, "stale"),
            "stale_count": sum(r["stale_count"] for r in runs),
            "misattribution": _mean_of(runs, "misattribution"),
            "co_injection": _mean_of(runs, "co_injection"),
            "clean": _mean_of(runs, "clean"),
            "third_party_recall": _mean_of(runs, "recall", "third_party"),
            "ambiguous_clean": _mean_of(runs, "clean", "ambiguous"),
            "abstain_answerable": _mean_of(runs, "abstain_answerable"),
            "abstain_unanswerable": _mean_of(runs, "abstain_unanswerable"),
            "unanswerable_abstained": sum(
                round((r["abstain_unanswerable"] or 0) * r["n_unanswerable"]) for r in runs
            ),
            "n_unanswerable": sum(r["n_unanswerable"] for r in runs),
            "p50_ms": percentile(lat, 0.5),
            "p99_ms": percentile(lat, 0.99),
        }
        rows.append(row)
        progress(
            f"{lang} {name}: clean {row['clean']:.3f} stale {row['stale']:.3f} "
            f"misattr {row['misattribution']:.3f}"
        )
    return rows


def noise_grid(
    connect: Connect, seed: int, lang: str, levels: list[float], progress: Callable[[str], None]
) -> dict[tuple[float, float], dict[str, float]]:
    grid = {}
    for p in levels:
        for q in levels:
            inst = generate(seed, lang, missed_merge=p, false_merge=q)
            r = run_arm(connect, inst, identity="posterior", gate="none", label=f"n{lang}")
            grid[(p, q)] = {
                "stale": r["stale"],
                "clean": r["clean"],
                "current_lost": r["current_lost"],
            }
            progress(f"noise p={p} q={q}: {grid[(p, q)]}")
    return grid


def scale_latency(
    connect: Connect, sizes: list[int], progress: Callable[[str], None], requests: int = 200
) -> list[dict[str, Any]]:
    """Fresh retrieval and snapshot latency at growing store sizes (filler records)."""
    out = []
    for size in sizes:
        inst = generate(0, "en", n_fillers=max(0, size - 474))
        mem = connect(f"blk-scale-{size}-{uuid.uuid4().hex[:6]}")
        try:
            t0 = time.perf_counter()
            mem.ingest(inst.records, batch_size=5000)
            ingest_s = time.perf_counter() - t0
            mem.block("warm up", "nobody")
            snap, fresh = [], []
            for rq in inst.requests[:requests]:
                snap.append(mem.block(rq.text, rq.partner, now=rq.now).latency_ms)
                fresh.append(
                    mem.block(
                        rq.text, rq.partner, now=rq.now, fresh=True, deadline_ms=10_000
                    ).latency_ms
                )
            row = {
                "records": len(inst.records),
                "ingest_s": ingest_s,
                "snapshot_p50": percentile(snap, 0.5),
                "snapshot_p99": percentile(snap, 0.99),
                "fresh_p50": percentile(fresh, 0.5),
                "fresh_p99": percentile(fresh, 0.99),
            }
            out.append(row)
            progress(f"scale {size}: {row}")
        finally:
            mem.close()
    return out


def _writer_process(uri: str, ns: str, rate: int, stop: Any, written: Any) -> None:
    """The background writer, in its own process as other services would be: ``rate``
    facts per second in four batches a second, until told to stop."""
    mem = Memory.connect(uri, ns, install_schema=False)
    i = 0
    try:
        while not stop.is_set():
            t = time.perf_counter()
            batch = [
                Record(
                    f"Load fact {i + j}: the Orion budget cap is ${i + j},000.",
                    id=f"load-{i + j}",
                    participants=("Load Writer",),
                    facts=(
                        Fact(f"Loadproject{(i + j) % 50}", "budget cap", f"${i + j},000", "update"),
                    ),
                )
                for j in range(rate // 4)
            ]
            mem.ingest(batch)
            i += len(batch)
            written.value = i
            time.sleep(max(0.0, 0.25 - (time.perf_counter() - t)))
    finally:
        mem.close()


def load_run(
    connect: Connect,
    progress: Callable[[str], None],
    rate: int = 400,
    requests: int = 2000,
    deadline_ms: float = 10,
) -> dict[str, Any]:
    """A writer process ingests ``rate`` facts/s while ``requests`` fresh-mode blocks are
    served here; reports the fallback rate and the worst wait beyond the deadline."""
    import multiprocessing as mp

    inst = generate(1, "en")
    ns = f"blk-load-{uuid.uuid4().hex[:6]}"
    mem = connect(ns)
    mem.ingest(inst.records)
    mem.block("warm up", "nobody")
    ctx = mp.get_context("spawn")
    stop, written = ctx.Event(), ctx.Value("i", 0)
    writer = ctx.Process(
        target=_writer_process, args=(mem.config.neo4j_uri, ns, rate, stop, written), daemon=True
    )
    writer.start()
    time.sleep(2.0)  # the writer is up and writing before requests start
    start_written = written.value
    t0 = time.perf_counter()
    lat, fell = [], 0
    for k in range(requests):
        rq = inst.requests[k % len(inst.requests)]
        b = mem.block(rq.text, rq.partner, now=rq.now, fresh=True, deadline_ms=deadline_ms)
        lat.append(b.latency_ms)
        fell += b.fell_back
    elapsed = time.perf_counter() - t0
    during = written.value - start_written
    stop.set()
    writer.join(timeout=60)
    mem.close()
    out = {
        "requests": requests,
        "seconds": elapsed,
        "facts_written": during,
        "write_rate": during / elapsed,
        "fallback_rate": fell / requests,
        "p50_ms": percentile(lat, 0.5),
        "p99_ms": percentile(lat, 0.99),
        "worst_added_wait_ms": max(0.0, max(lat) - deadline_ms),
    }
    progress(f"load: {out}")
    return out


def locomo_run(
    connect: Connect, data_dir: str | Path, progress: Callable[[str], None]
) -> list[dict[str, Any]]:
    """Ten conversations in one store; questions about colliding first names."""
    from graphmem_bench.formats import locomo

    convs = locomo.load_conversations(data_dir)
    names = ("John", "Jon")
    word = re.compile(r"\b(John|Jon)\b")
    rows = []
    for distinct in (False, True):
        mem = connect(f"blk-locomo-{uuid.uuid4().hex[:6]}")
        try:
            pos = 0
            for c in convs:
                recs = list(locomo.records(c, distinct_speakers=distinct, start_pos=pos))
                pos += len(recs)
                mem.ingest(recs)
            mem.block("warm up", "nobody")
            questions = []
            for c in convs:
                speakers = {c.speaker_a, c.speaker_b}
                for qa in c.qa:
                    m = word.search(str(qa.get("question", "")))
                    if m and m.group(1) in speakers and m.group(1) in names:
                        who = m.group(1)
                        partner = f"{who}#{c.sample_id}" if distinct else who
                        questions.append((c.sample_id, str(qa["question"]), partner))
            for identity in ("none", "participant"):
                foreign = 0
                for conv_id, q, partner in questions:
                    b = mem.block(q, partner, identity=identity, gate="none")
                    ids = [ln.record.record_id for ln in b.lines]
                    foreign += any(not i.startswith(conv_id + ":") for i in ids)
                row = {
                    "speakers": "distinct per conversation" if distinct else "by first name",
                    "rule": "participant filter" if identity == "participant" else "no rule",
                    "questions": len(questions),
                    "foreign_share": foreign / len(questions) if questions else 0.0,
                }
                rows.append(row)
                progress(f"locomo: {row}")
        finally:
            mem.close()
    return rows


def markdown(res: BlockBench, command: str, seeds: list[int]) -> str:
    out = [
        f"Command: `{command}`",
        "",
        f"Seeds {seeds}; 240 requests per instance (hard slice: 180 with 60 unanswerable). "
        "Answerable means unless noted. Latency is the wall-clock `Memory.block` call "
        "from the snapshot.",
        "",
        "| lang | arm | recall | stale | misattr. | co-inj. | clean | 3rd-party recall | "
        "abstain (answerable) | unanswerable abstained | p50 ms | p99 ms |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in res.rows:
        un = f"{r['unanswerable_abstained']}/{r['n_unanswerable']}" if r["n_unanswerable"] else "—"
        out.append(
            f"| {r['lang']} | {r['arm']} | {r['recall']:.3f} | {r['stale']:.3f} "
            f"({r['stale_count']}) | {r['misattribution']:.3f} | {r['co_injection']:.3f} | "
            f"{r['clean']:.3f} | {r['third_party_recall']:.3f} | "
            f"{r['abstain_answerable']:.3f} | {un} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} |"
        )
    if res.noise:
        levels = sorted({p for p, _ in res.noise})
        for metric in ("stale", "current_lost", "clean"):
            out += [
                "",
                f"Key noise, **{metric}** (rows: missed merge p; columns: false "
                "merge q; generator seed 0, English, posterior identity, no gate)",
                "",
                "| p \\ q | " + " | ".join(str(q) for q in levels) + " |",
                "|---|" + "---:|" * len(levels),
            ]
            for p in levels:
                out.append(
                    f"| {p} | "
                    + " | ".join(f"{res.noise[(p, q)][metric]:.3f}" for q in levels)
                    + " |"
                )
    if res.latency:
        out += [
            "",
            "| records | ingest s | snapshot p50 ms | snapshot p99 ms | "
            "fresh p50 ms | fresh p99 ms |",
            "|---:|---:|---:|---:|---:|---:|",
        ]
        for r in res.latency:
            out.append(
                f"| {r['records']:,} | {r['ingest_s']:.1f} | {r['snapshot_p50']:.2f} | "
                f"{r['snapshot_p99']:.2f} | {r['fresh_p50']:.2f} | "
                f"{r['fresh_p99']:.2f} |"
            )
    if res.load:
        ld = res.load
        out += [
            "",
            f"Load: {ld['requests']:,} fresh-mode requests (deadline 10 ms) in "
            f"{ld['seconds']:.1f} s while a writer stored {ld['facts_written']:,} facts "
            f"({ld['write_rate']:.0f}/s): fallback rate {ld['fallback_rate']:.3f}, "
            f"p50 {ld['p50_ms']:.2f} ms, p99 {ld['p99_ms']:.2f} ms, worst wait beyond the "
            f"deadline {ld['worst_added_wait_ms']:.2f} ms.",
        ]
    if res.locomo:
        out += [
            "",
            "LoCoMo: all ten conversations in one store; questions that name a "
            "speaker called John or Jon. Share of blocks holding another "
            "conversation's records:",
            "",
            "| speakers stored | rule | questions | foreign share |",
            "|---|---|---:|---:|",
        ]
        for r in res.locomo:
            out.append(
                f"| {r['speakers']} | {r['rule']} | {r['questions']} | {r['foreign_share']:.3f} |"
            )
    return "\n".join(out) + "\n"


def plots(res: BlockBench, out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    if res.noise:
        levels = sorted({p for p, _ in res.noise})
        fig, axes = plt.subplots(1, 2, figsize=(8, 3.4))
        for ax, metric in zip(axes, ("stale", "current_lost"), strict=True):
            grid = [[res.noise[(p, q)][metric] for q in levels] for p in levels]
            im = ax.imshow(grid, origin="lower", vmin=0, vmax=1, cmap="viridis")
            ax.set_xticks(range(len(levels)), [str(x) for x in levels])
            ax.set_yticks(range(len(levels)), [str(x) for x in levels])
            ax.set_xlabel("false merge q")
            ax.set_ylabel("missed merge p")
            ax.set_title(metric.replace("_", " "))
            fig.colorbar(im, ax=ax, fraction=0.046)
        fig.tight_layout()
        paths.append(out_dir / "blocks_key_noise.png")
        fig.savefig(paths[-1], dpi=120)
        plt.close(fig)
    lat = [r for r in res.rows if r["arm"] == "keyed + posterior + slot gate"]
    if lat and res.latency:
        fig, ax = plt.subplots(figsize=(5, 3.2))
        xs = [r["records"] for r in res.latency]
        ax.plot(xs, [r["fresh_p50"] for r in res.latency], marker="o", label="fresh p50")
        ax.plot(xs, [r["snapshot_p50"] for r in res.latency], marker="o", label="snapshot p50")
        ax.plot(xs, [0.20, 2.8, 22.6][: len(xs)], marker="x", ls="--", label="paper fresh")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("records in the store")
        ax.set_ylabel("ms per block")
        ax.legend()
        fig.tight_layout()
        paths.append(out_dir / "blocks_latency.png")
        fig.savefig(paths[-1], dpi=120)
        plt.close(fig)
    return paths
