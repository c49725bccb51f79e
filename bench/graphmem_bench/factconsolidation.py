"""FactConsolidation (MemoryAgentBench): answer-in-evidence for CMC and every control.

Without an LLM the honest figure is answer-in-evidence: is the normalized gold a
substring of the rendered evidence? Under strict last-write-wins the limit is 340/400
multi-hop and 393/400 single-hop; the audit names the questions whose gold is only an
overwritten value of a key reached from the anchors.
"""

from __future__ import annotations

import statistics
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.domain.keys import make_key, normalize_relation
from graphmem.memory import Memory
from graphmem.reads.evidence import EvidenceReader
from graphmem_bench.controls import bfs, build_snapshot
from graphmem_bench.extract.grammar import GrammarExtractor
from graphmem_bench.formats.factconsolidation import Row, load_rows, parse_context
from graphmem_bench.reads import anchors, named
from graphmem_bench.scoring import answer_in_text, normalize_answer, percentile

LENGTHS = ("6k", "32k", "64k", "262k")
BM25S_LIBRARY = "bm25s alone (its tokenizer, top 100 of the records, joined)"
CONTROLS = (
    "cmc",
    "prior_refresh",
    "stale_closure",
    "bm25_top100",
    "bm25_matched",
    "current_state",
    "raw_history",
)


@dataclass
class Result:
    parse: list[dict[str, Any]] = field(default_factory=list)
    ingest: list[dict[str, Any]] = field(default_factory=list)
    hits: dict[tuple[str, str, str], int] = field(default_factory=dict)  # (hops, len, control)
    chars: dict[tuple[str, str, str], float] = field(default_factory=dict)
    fallbacks: dict[tuple[str, str, str], int] = field(default_factory=dict)
    sweep: dict[tuple[str, int], int] = field(default_factory=dict)  # (hops kind, h) -> hits
    audit: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    latency: dict[str, list[float]] = field(default_factory=dict)
    anchors: dict[str, Counter[int]] = field(default_factory=dict)
    korean: list[dict[str, Any]] = field(default_factory=list)


def parse_stats(rows: list[Row], extractor: GrammarExtractor) -> list[dict[str, Any]]:
    out = []
    for length in LENGTHS:
        row = next(r for r in rows if r.length == length)
        keys: Counter[str] = Counter()
        raw_keys: Counter[tuple[str, str]] = Counter()
        unparsed = 0
        records = list(parse_context(row.context))
        for rec in records:
            ex = extractor.extract(rec)
            if not ex.facts:
                unparsed += 1
                continue
            f = ex.facts[0]
            keys[make_key(f.subject, normalize_relation(f.relation))] += 1
            raw_keys[(f.subject, f.relation)] += 1
        out.append(
            {
                "length": length,
                "lines": len(records),
                "unparsed": unparsed,
                "keys": len(keys),
                "keys_2plus": sum(1 for n in keys.values() if n >= 2),
                "keys_case_sensitive": len(raw_keys),
            }
        )
    return out


def _audit_question(mem: Memory, question: str, golds: list[str]) -> str:
    """'overwritten' when the gold is only an old value of a key reached from the anchors."""
    reader = EvidenceReader(mem.store, mem.namespace, mem.config.aliases)
    snap = build_snapshot(mem.store, mem.namespace)
    keys = [a.key for a in anchors(named(mem.store), reader.spans(question))]
    reached = bfs(keys, snap.out_head, 5)
    reached_keys = {v.key for v in reached}
    norm_golds = {normalize_answer(g) for g in golds}
    for v in snap.versions.values():
        if v.key in reached_keys and not v.is_head and normalize_answer(v.value) in norm_golds:
            return "overwritten"
    return "broken path"


def run(
    connect: Callable[..., Memory],
    data_dir: str | Path,
    *,
    korean_fixture: Path | None = None,
    progress: Callable[[str], None] = print,
    run_id: str | None = None,
) -> Result:
    rows = load_rows(data_dir)
    extractor = GrammarExtractor.from_data_dir(data_dir)
    res = Result(parse=parse_stats(rows, extractor))
    run_id = run_id or uuid.uuid4().hex[:8]
    mems: dict[str, Memory] = {}
    for length in LENGTHS:
        row = next(r for r in rows if r.length == length and r.hops == "mh")
        mem = connect(f"fc-{length}-{run_id}", extractor=extractor)
        records = list(parse_context(row.context, row.source))
        report = mem.ingest(records)
        before = mem.counts()
        again = mem.ingest(records)  # the same file twice: nothing may change
        res.ingest.append(
            {
                "length": length,
                "records": report.stored,
                "seconds": report.seconds,
                "parse": report.parse_seconds,
                "db": report.db_seconds,
                "ops": report.ops,
                "again_stored": again.stored,
                "again_seconds": again.seconds,
                "unchanged": mem.counts() == before,
                "nodes": sum(v for k, v in before.items() if not k.endswith("->")),
                "relationships": sum(v for k, v in before.items() if k.endswith("->")),
            }
        )
        progress(f"ingest {length}: {report.summary()}")
        mems[length] = mem
    for row in rows:
        mem = mems[row.length]
        for control in CONTROLS:
            key = (row.hops, row.length, control)
            hits, chars, fb, times = 0, [], 0, []
            for q, golds in zip(row.questions, row.answers, strict=True):
                t = time.perf_counter()
                ev = mem.evidence(q, control=control)
                times.append((time.perf_counter() - t) * 1000)
                hits += answer_in_text(golds, ev.text)
                chars.append(ev.chars)
                fb += ev.fallback
                if control == "cmc":
                    res.anchors.setdefault(row.hops, Counter())[len(ev.anchors)] += 1
                    if not answer_in_text(golds, ev.text):
                        res.audit.setdefault(row.hops, []).append(
                            {
                                "length": row.length,
                                "question": q,
                                "gold": golds[0],
                                "kind": _audit_question(mem, q, golds),
                            }
                        )
            res.hits[key], res.chars[key], res.fallbacks[key] = hits, statistics.mean(chars), fb
            if row.length == "262k" and control in ("cmc", "bm25_top100"):
                res.latency.setdefault(control, []).extend(times)
            progress(f"{row.hops} {row.length} {control}: {hits}/100")
        if row.length == "262k" and row.hops == "mh":
            from graphmem_bench.tenants import bm25s_latency

            texts = [r.text for r in parse_context(row.context, row.source)]
            res.latency[BM25S_LIBRARY] = bm25s_latency(texts, row.questions, 2)
        for h in range(1, 6):
            hits = sum(
                answer_in_text(g, mem.evidence(q, hops=h).text)
                for q, g in zip(row.questions, row.answers, strict=True)
            )
            res.sweep[(row.hops, h)] = res.sweep.get((row.hops, h), 0) + hits
    if korean_fixture is not None and korean_fixture.exists():
        import json

        items = json.loads(korean_fixture.read_text(encoding="utf-8"))
        answers = {(r.source, i): a for r in rows for i, a in enumerate(r.answers)}
        for mem in mems.values():  # names linked by meaning need their vectors first
            keeper = mem._evidence.names_by_meaning
            if keeper is not None:
                keeper.wait_idle(1800)
        for variant in ("en", "ko_latin", "ko_hangul"):
            found = hits = fallback_hits = 0
            times = []
            for it in items:
                mem = mems[it["source"].rsplit("_", 1)[1]]
                t = time.perf_counter()
                ev = mem.evidence(it[variant])
                times.append((time.perf_counter() - t) * 1000)
                hit = answer_in_text(answers[(it["source"], it["index"])], ev.text)
                found += bool(ev.anchors)
                # a hit counts as anchored only when the evidence came from anchors
                hits += hit and bool(ev.anchors)
                fallback_hits += hit and ev.fallback
            res.korean.append(
                {
                    "variant": variant,
                    "questions": len(items),
                    "anchored": found,
                    "answer_in_evidence": hits,
                    "fallback_hits": fallback_hits,
                    "p50": percentile(times, 0.5),
                    "p95": percentile(times, 0.95),
                }
            )
            progress(
                f"korean {variant}: anchored {found}, hits {hits}, fallback hits {fallback_hits}"
            )
    for mem in mems.values():
        mem.close()
    return res


def markdown(res: Result, command: str) -> str:
    out = [f"Command: `{command}`", ""]
    out += [
        "### Parsing (grammar adapter, MQuAKE cloze templates)",
        "",
        "| length | lines | unparsed | keys | keys with ≥2 versions | keys, case-sensitive |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for p in res.parse:
        out.append(
            f"| {p['length']} | {p['lines']:,} | {p['unparsed']} | {p['keys']:,} | "
            f"{p['keys_2plus']:,} | {p['keys_case_sensitive']:,} |"
        )
    out += [
        "",
        "### Ingest into Neo4j with full provenance",
        "",
        "Each record becomes an Evidence node, each fact a Version with its Operation, "
        "SUPPORTED_BY, SUBJECT/OBJECT and SUPERSEDES edges, in batches of 5,000 "
        "(one transaction each). The second ingest of the same file must change nothing.",
        "",
        "| length | records | seconds | records/s | parse s | database s | ops | "
        "nodes / relationships | ingest again: stored, seconds, unchanged |",
        "|---|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for i in res.ingest:
        ops = ", ".join(f"{k} {v}" for k, v in sorted(i["ops"].items()))
        out.append(
            f"| {i['length']} | {i['records']:,} | {i['seconds']:.1f} | "
            f"{i['records'] / i['seconds']:,.0f} | {i['parse']:.1f} | {i['db']:.1f} | "
            f"{ops} | {i['nodes']:,} / {i['relationships']:,} | "
            f"{i['again_stored']}, {i['again_seconds']:.1f}, "
            f"{'yes' if i['unchanged'] else 'NO'} |"
        )
    for hops, title in (("mh", "multi-hop"), ("sh", "single-hop")):
        out += [
            "",
            f"### Answer-in-evidence, {title} (per 100 questions; mean evidence chars)",
            "",
            "| control | 6k | 32k | 64k | 262k | total | mean chars | fallbacks |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for c in CONTROLS:
            cells = [res.hits[(hops, length, c)] for length in LENGTHS]
            chars = statistics.mean(res.chars[(hops, length, c)] for length in LENGTHS)
            fb = sum(res.fallbacks[(hops, length, c)] for length in LENGTHS)
            out.append(
                f"| {c} | "
                + " | ".join(map(str, cells))
                + f" | **{sum(cells)}**/400 | {chars:,.0f} | {fb} |"
            )
    out += [
        "",
        "### Hop sweep (cmc, answer-in-evidence over 400 questions)",
        "",
        "| h | 1 | 2 | 3 | 4 | 5 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for hops in ("mh", "sh"):
        out.append(
            f"| {hops} | " + " | ".join(str(res.sweep[(hops, h)]) for h in range(1, 6)) + " |"
        )
    out += ["", "### Gold-answer audit (cmc misses)", ""]
    for hops in ("mh", "sh"):
        kinds = Counter(a["kind"] for a in res.audit.get(hops, []))
        by_len = Counter(a["length"] for a in res.audit.get(hops, []) if a["kind"] == "overwritten")
        out.append(
            f"- {hops}: {sum(kinds.values())} misses — overwritten gold "
            f"{kinds['overwritten']} (by length "
            + ", ".join(f"{L} {by_len[L]}" for L in LENGTHS)
            + f"), broken path {kinds['broken path']}"
        )
    out += ["", "### Anchors per question (cmc)", ""]
    for hops, cnt in sorted(res.anchors.items()):
        out.append(f"- {hops}: " + ", ".join(f"{k} anchors: {v}" for k, v in sorted(cnt.items())))
    if res.latency:
        cmc, bm = res.latency["cmc"], res.latency["bm25_top100"]
        out += [
            "",
            "### Latency at 262k (200 questions, same run, wall clock per call)",
            "",
            "| control | p50 ms | p95 ms | max ms |",
            "|---|---:|---:|---:|",
        ]
        names = {
            "cmc": "cmc (Neo4j)",
            "bm25_top100": "bm25_top100 control (bm25s over facts, rendered)",
        }
        for key, v in res.latency.items():
            p50, p95 = percentile(v, 0.5), percentile(v, 0.95)
            out.append(f"| {names.get(key, key)} | {p50:.2f} | {p95:.2f} | {max(v):.1f} |")
        out.append("")
        out.append(
            f"cmc p95 / bm25_top100 p95 = {percentile(cmc, 0.95) / percentile(bm, 0.95):.2f}"
        )
        if BM25S_LIBRARY in res.latency:
            lib = res.latency[BM25S_LIBRARY]
            out.append("")
            out.append(
                f"cmc p95 / bm25s-alone p95 = "
                f"{percentile(cmc, 0.95) / percentile(lib, 0.95):.2f} (bm25s alone never "
                "leaves the process; any Neo4j read pays a Bolt round trip first)"
            )
    if res.korean:
        out += [
            "",
            "### Korean questions (400 multi-hop, translated; tests/fixtures)",
            "",
            "Answer-in-evidence counts anchored evidence only; a hit from the "
            "whole-history fallback (nothing anchored) is in its own column.",
            "",
            "| variant | anchored | answer in anchored evidence | fallback hits | "
            "p50 ms | p95 ms |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for k in res.korean:
            out.append(
                f"| {k['variant']} | {k['anchored']}/{k['questions']} | "
                f"{k['answer_in_evidence']}/{k['questions']} | "
                f"{k['fallback_hits']} | {k['p50']:.1f} | {k['p95']:.1f} |"
            )
    return "\n".join(out) + "\n"


def plots(res: Result, out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    fig, ax = plt.subplots(figsize=(5, 3.2))
    for hops, label in (("mh", "multi-hop"), ("sh", "single-hop")):
        ax.plot(
            range(1, 6), [res.sweep[(hops, h)] / 4 for h in range(1, 6)], marker="o", label=label
        )
    ax.set_xlabel("hops h")
    ax.set_ylabel("answer in evidence (%)")
    ax.set_title("FactConsolidation: hop sweep (cmc)")
    ax.set_ylim(0, 100)
    ax.legend()
    fig.tight_layout()
    paths.append(out_dir / "fc_hop_sweep.png")
    fig.savefig(paths[-1], dpi=120)
    plt.close(fig)
    if res.latency:
        fig, ax = plt.subplots(figsize=(5, 3.2))
        for name, v in res.latency.items():
            s = sorted(v)
            ax.plot(s, [i / len(s) for i in range(1, len(s) + 1)], label=name)
        ax.set_xscale("log")
        ax.set_xlabel("ms per question (262k)")
        ax.set_ylabel("share of questions")
        ax.set_title("Evidence latency, CDF")
        ax.legend()
        fig.tight_layout()
        paths.append(out_dir / "fc_latency_cdf.png")
        fig.savefig(paths[-1], dpi=120)
        plt.close(fig)
    return paths
