"""``graphmem-bench``: the benchmarks behind BENCHMARKS.md, outside the product.

Each command measures, prints a Markdown section and, with ``--write``, replaces that
section of a Markdown file (between ``<!-- name:start -->`` and ``<!-- name:end -->``).
Data is read from the folders the options name: shared data sets from ``--data``, the
frozen sets of graphmem's source tree from ``tests/fixtures/...`` under the current
directory unless an option names another place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from graphmem.memory import Memory

DATA_DEFAULT = "../shared/data"
FIXTURES_DEFAULT = "tests/fixtures"  # in a checkout of graphmem, run from its root


def _fixture(what: str) -> Callable[[click.Context, click.Parameter, str], Path]:
    """A click callback: the path, or a clear error naming the option to pass."""

    def check(ctx: click.Context, param: click.Parameter, value: str) -> Path:
        path = Path(value)
        if not path.exists():
            option = param.opts[0] if param.opts else param.name
            raise click.BadParameter(
                f"{path} does not exist. {what} ships with graphmem's source tree "
                f"({FIXTURES_DEFAULT}/...): run from the root of a checkout, or pass "
                f"{option} with its path.",
                ctx=ctx,
                param=param,
            )
        return path

    return check


@click.group()
@click.option(
    "--uri",
    envvar="NEO4J_URI",
    default=None,
    help="Bolt URI of Neo4j (default: $NEO4J_URI, else the local server).",
)
@click.pass_context
def main(ctx: click.Context, uri: str | None) -> None:
    """Benchmarks of graphmem (P-Mem, FactConsolidation, memory blocks, service load,
    extraction).

    \b
    Example:
      graphmem-bench pmem --cases 40 --write BENCHMARKS.md
    """
    ctx.ensure_object(dict)
    ctx.obj.update(uri=uri)


@main.command("pmem")
@click.option("--cases", default=40, show_default=True, help="Cases per setting.")
@click.option("--seed", default=0, show_default=True)
@click.option(
    "--write",
    "write",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also replace the P-Mem section of this Markdown file.",
)
@click.pass_context
def bench_pmem(ctx: click.Context, cases: int, seed: int, write: str | None) -> None:
    """P-Mem controlled benchmark, state level, English and Korean.

    \b
    Example:
      graphmem-bench pmem --cases 40 --write BENCHMARKS.md
    """
    import time

    from graphmem_bench import pmem

    connect = _memories(ctx.obj["uri"], "pmem-schema")
    t0 = time.perf_counter()
    rows = pmem.run(connect, cases=cases, seed=seed, progress=lambda m: click.echo(m, err=True))
    text = pmem.table(rows)
    click.echo(text)
    click.echo(f"({time.perf_counter() - t0:.1f}s)")
    if write:
        cmd = f"graphmem-bench pmem --cases {cases} --seed {seed} --write {write}"
        _replace_section(Path(write), "pmem", f"Command: `{cmd}`\n\n{text}\n")


@main.command("factconsolidation")
@click.option(
    "--data",
    "data_dir",
    default=DATA_DEFAULT,
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder holding factconsolidation/ and mquake/.",
)
@click.option(
    "--write",
    "write",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also replace the FactConsolidation section of this Markdown file.",
)
@click.option(
    "--plots",
    "plot_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Write the hop-sweep and latency plots (PNG) here.",
)
@click.option(
    "--korean",
    "korean",
    default=f"{FIXTURES_DEFAULT}/factconsolidation_mh_ko.json",
    show_default=True,
    type=click.Path(dir_okay=False),
    callback=_fixture("The translated multi-hop questions (factconsolidation_mh_ko.json)"),
    help="The 400 multi-hop questions translated into Korean.",
)
@click.pass_context
def bench_factconsolidation(
    ctx: click.Context, data_dir: str, write: str | None, plot_dir: str | None, korean: Path
) -> None:
    """FactConsolidation: parsing, ingest, answer-in-evidence per control, audit, latency.

    \b
    Example:
      graphmem-bench factconsolidation --data ../shared/data --write BENCHMARKS.md --plots docs
    """
    from graphmem_bench import factconsolidation as fc

    res = fc.run(
        _memories(ctx.obj["uri"], "fc-schema"),
        data_dir,
        korean_fixture=korean,
        progress=lambda m: click.echo(m, err=True),
    )
    cmd = (
        f"graphmem-bench factconsolidation --data {data_dir}"
        + (f" --write {write}" if write else "")
        + (f" --plots {plot_dir}" if plot_dir else "")
    )
    _publish(
        fc.markdown(res, cmd),
        "factconsolidation",
        write,
        fc.plots(res, Path(plot_dir)) if plot_dir else (),
    )


@main.command("tenants")
@click.option(
    "--data",
    "data_dir",
    default=DATA_DEFAULT,
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder holding factconsolidation/.",
)
@click.option(
    "--neighbour",
    default=1_000_000,
    show_default=True,
    type=click.IntRange(1000, 5_000_000),
    help="Records of the huge neighbour.",
)
@click.option(
    "--small",
    default=98,
    show_default=True,
    type=click.IntRange(0, 1000),
    help="Small neighbour namespaces (FactConsolidation 6k each).",
)
@click.option(
    "--passes",
    default=3,
    show_default=True,
    type=click.IntRange(1, 20),
    help="Timed passes over the 100 questions (after one warm-up pass).",
)
@click.option(
    "--write",
    "write",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also replace the tenants section of this Markdown file.",
)
@click.option(
    "--plots",
    "plot_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Write the latency CDF (PNG) here.",
)
def bench_tenants(
    data_dir: str, neighbour: int, small: int, passes: int, write: str | None, plot_dir: str | None
) -> None:
    """Fresh server, UNWIND floor, noisy neighbours: evidence latency and ingest rate.

    Starts its own scratch Neo4j (empty; removed afterwards), so --uri is not used.

    \b
    Example:
      graphmem-bench tenants --data ../shared/data --write BENCHMARKS.md --plots docs
    """
    from graphmem_bench import tenants

    res = tenants.run(
        data_dir,
        neighbour=neighbour,
        small=small,
        passes=passes,
        progress=lambda m: click.echo(m, err=True),
    )
    cmd = (
        f"graphmem-bench tenants --data {data_dir} --neighbour {neighbour} --small {small}"
        f" --passes {passes}"
        + (f" --write {write}" if write else "")
        + (f" --plots {plot_dir}" if plot_dir else "")
    )
    _publish(
        tenants.markdown(res, cmd),
        "tenants",
        write,
        tenants.plots(res, Path(plot_dir)) if plot_dir else (),
    )


@main.command("hangul-names")
@click.option(
    "--data",
    "data_dir",
    default=DATA_DEFAULT,
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder holding factconsolidation/.",
)
@click.option(
    "--write",
    "write",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also replace the hangul-names section of this Markdown file.",
)
@click.option(
    "--fixtures",
    "fixtures",
    default=FIXTURES_DEFAULT,
    show_default=True,
    type=click.Path(file_okay=False),
    callback=_fixture("The Hangul renderings (hangul_names/, _round2/ … _round4/)"),
    help="The folder holding hangul_names/, _round2/ and _round3/ (dev) and _round4/ (held out).",
)
@click.option(
    "--no-meaning",
    is_flag=True,
    help="Link by sound only (the bundled e5 model is not loaded).",
)
@click.option(
    "--fit",
    "fit_only",
    is_flag=True,
    help="Only fit the meaning model's weights on the dev splits and print them.",
)
def bench_hangul_names(
    data_dir: str, write: str | None, fixtures: Path, no_meaning: bool, fit_only: bool
) -> None:
    """Cross-script linking: Hangul renderings of FactConsolidation names.

    No database: the linker indexes the 262k graph's names in-process; with meaning (the
    default) their vectors come from the bundled e5 model (about a minute, once; cached).

    \b
    Example:
      graphmem-bench hangul-names --data ../shared/data --write BENCHMARKS.md
    """
    from graphmem_bench import hangul_names

    if fit_only:
        from graphmem.language.name_meaning import MEANING_FEATURES

        (*weights, bias), cv = hangul_names.fit(data_dir, fixtures)
        for name, w in zip(MEANING_FEATURES, weights, strict=True):
            click.echo(f"{name:>14} {w:+.4f}")
        click.echo(f"{'bias':>14} {bias:+.4f}")
        click.echo("\n5-fold cross-validation on the dev splits, by link threshold:")
        click.echo("threshold  added  right  all links  right  precision  recall")
        for t, c in cv.items():
            click.echo(
                f"{t:9.1f}  {c['added']:5d}  {c['added_right']:5d}  {c['links']:9d}  "
                f"{c['right']:5d}  {c['right'] / max(1, c['links']):9.3f}  "
                f"{c['right'] / max(1, c['positives']):6.3f}"
            )
        return
    res = hangul_names.run(data_dir, fixtures, meaning=not no_meaning)
    cmd = (
        f"graphmem-bench hangul-names --data {data_dir}"
        + (" --no-meaning" if no_meaning else "")
        + (f" --write {write}" if write else "")
    )
    _publish(hangul_names.markdown(res, cmd), "hangul-names", write)


@main.command("blocks")
@click.option(
    "--data",
    "data_dir",
    default=DATA_DEFAULT,
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder holding locomo/.",
)
@click.option("--seeds", default=5, show_default=True, help="Seeds per arm (0..N-1).")
@click.option("--langs", default="en,ko", show_default=True)
@click.option(
    "--sizes",
    default="1000,20000,100000",
    show_default=True,
    help="Store sizes (records) for the latency sweep; empty to skip.",
)
@click.option(
    "--write",
    "write",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also replace the memory-block section of this Markdown file.",
)
@click.option("--plots", "plot_dir", type=click.Path(file_okay=False), default=None)
@click.option(
    "--embedder",
    default="none",
    show_default=True,
    help="The memories' embedder (MemoryConfig.embedder): none, e5, ollama:<model>.",
)
@click.pass_context
def bench_blocks(
    ctx: click.Context,
    data_dir: str,
    seeds: int,
    langs: str,
    sizes: str,
    write: str | None,
    plot_dir: str | None,
    embedder: str,
) -> None:
    """Memory blocks (the block study): keyed vs unkeyed, identity, gates, key noise, order,
    latency at scale, a load run, and LoCoMo's colliding names.

    \b
    Example:
      graphmem-bench blocks --seeds 5 --write BENCHMARKS.md --plots docs
    """
    from graphmem_bench import blocks_run as br

    memories = _memories(ctx.obj["uri"], "blk-schema")

    def connect(ns: str, **overrides: Any) -> Memory:
        overrides.setdefault("embedder", embedder)
        return memories(ns, **overrides)

    def say(m: str) -> None:
        click.echo(m, err=True)

    seed_list = list(range(seeds))
    res = br.BlockBench()
    for lang in [x for x in langs.split(",") if x]:
        res.rows += br.main_arms(connect, seed_list, lang, say)
    res.noise = br.noise_grid(connect, 0, "en", [0.0, 0.05, 0.1, 0.2, 0.4], say)
    if sizes.strip():
        res.latency = br.scale_latency(connect, [int(x) for x in sizes.split(",")], say)
    res.load = br.load_run(connect, say)
    res.locomo = br.locomo_run(connect, data_dir, say)
    cmd = (
        f"graphmem-bench blocks --seeds {seeds} --langs {langs} --sizes {sizes}"
        + (f" --embedder {embedder}" if embedder != "none" else "")
        + (f" --write {write}" if write else "")
        + (f" --plots {plot_dir}" if plot_dir else "")
    )
    _publish(
        br.markdown(res, cmd, seed_list),
        "blocks",
        write,
        br.plots(res, Path(plot_dir)) if plot_dir else (),
    )


@main.command("service")
@click.option(
    "--data", "data_dir", default=DATA_DEFAULT, show_default=True, type=click.Path(file_okay=False)
)
@click.option("--clients", default=50, show_default=True)
@click.option("--seconds", default=60.0, show_default=True)
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
@click.pass_context
def bench_service(
    ctx: click.Context, data_dir: str, clients: int, seconds: float, write: str | None
) -> None:
    """Load: concurrent clients against POST /evidence on the 262k FactConsolidation store.

    \b
    Example:
      graphmem-bench service --clients 50 --seconds 60 --write BENCHMARKS.md
    """
    from graphmem_bench import service_load

    res = service_load.run(
        ctx.obj["uri"], data_dir, clients, seconds, progress=lambda m: click.echo(m, err=True)
    )
    cmd = f"graphmem-bench service --clients {clients} --seconds {seconds:g}" + (
        f" --write {write}" if write else ""
    )
    _publish(service_load.markdown(res, cmd), "service", write)


@main.command("locomo")
@click.option(
    "--data",
    "data_dir",
    default=DATA_DEFAULT,
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder holding locomo/.",
)
@click.option(
    "--korean",
    is_flag=True,
    help="The Korean conversations (tests/fixtures/korean_conversations*) instead of LoCoMo.",
)
@click.option(
    "--korean-round",
    type=click.Choice(["1", "2"]),
    default="1",
    show_default=True,
    help="With --korean: round 1 (korean_conversations/, two conversations to tune, two "
    "held out) or round 2 (korean_conversations_round2/, four long ones, all held out).",
)
@click.option(
    "--budgets",
    default="2000,4000,8000,16000",
    show_default=True,
    help="Evidence budgets in characters, comma-separated.",
)
@click.option(
    "--embedder",
    default="e5",
    show_default=True,
    type=click.Choice(["e5", "none"]),
    help="graphmem's embedder (none: its lexical ranking alone); the peers always use e5.",
)
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
@click.option("--plots", "plot_dir", type=click.Path(file_okay=False), default=None)
@click.pass_context
def bench_locomo(
    ctx: click.Context,
    data_dir: str,
    korean: bool,
    korean_round: str,
    budgets: str,
    embedder: str,
    write: str | None,
    plot_dir: str | None,
) -> None:
    """Evidence from real conversations (LoCoMo, text only; or the Korean set): recall of
    the gold turns per budget and category, against bm25s, e5, their RRF fusion and the
    newest turns, in the same run; held-out conversations apart.

    \b
    Example:
      graphmem-bench locomo --budgets 2000,4000,8000,16000 --write BENCHMARKS.md --plots docs
      graphmem-bench locomo --korean --budgets 2000,4000,8000 --write BENCHMARKS.md
      graphmem-bench locomo --korean --korean-round 2 --budgets 2000,4000,8000
    """
    from graphmem_bench import locomo as lc

    try:
        sizes = tuple(int(b) for b in budgets.split(","))
    except ValueError:
        raise click.BadParameter("budgets must be whole numbers, e.g. 2000,4000") from None
    if korean_round != "1" and not korean:
        raise click.UsageError("--korean-round goes with --korean")
    dataset = lc.korean_set(int(korean_round)) if korean else lc.locomo_set(data_dir)
    connect = _memories(ctx.obj["uri"], "locomo-schema")
    res = lc.run(connect, dataset, sizes, embedder, progress=lambda m: click.echo(m, err=True))
    cmd = (
        "graphmem-bench locomo"
        + (" --korean" if korean else "")
        + (f" --korean-round {korean_round}" if korean_round != "1" else "")
        + f" --budgets {budgets}"
        + (f" --embedder {embedder}" if embedder != "e5" else "")
        + (f" --write {write}" if write else "")
        + (f" --plots {plot_dir}" if plot_dir else "")
    )
    name = "korean_conversations" if korean else "locomo"
    if korean_round != "1":
        name += f"_round{korean_round}"
    figures = lc.plot(res, Path(plot_dir), f"{name}_recall") if plot_dir else ()
    _publish(
        lc.markdown(res, cmd), name if embedder == "e5" else f"{name}-{embedder}", write, figures
    )


@main.command("relative-time")
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
@click.option("--misses", is_flag=True, help="Print the development split's misses.")
def bench_relative_time(write: str | None, misses: bool) -> None:
    """Relative time expressions resolved against a message's sending day, scored on the
    blind set (tests/fixtures/relative_time): development and held-out splits, English and
    Korean; held-out in aggregate and per category only.

    \b
    Example:
      graphmem-bench relative-time --write BENCHMARKS.md
    """
    from graphmem_bench import relative_time as rt

    scores = {split: rt.run(split) for split in ("dev", "heldout")}
    if misses:
        for lang, s in sorted(scores["dev"].items()):
            for line in s.misses:
                click.echo(f"{lang}: {line}", err=True)
    cmd = "graphmem-bench relative-time" + (f" --write {write}" if write else "")
    _publish(rt.markdown(scores, cmd), "relative-time", write)


@main.command("soak")
@click.option("--minutes", default=10.0, show_default=True, type=click.FloatRange(0.1, 24 * 60))
@click.option("--clients", default=8, show_default=True, type=click.IntRange(1, 256))
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
@click.pass_context
def bench_soak(ctx: click.Context, minutes: float, clients: int, write: str | None) -> None:
    """Several clients mix writes and reads over HTTP for a while: errors, p99, the
    server's memory growth, and the audits afterwards.

    \b
    Example:
      graphmem-bench soak --minutes 10 --clients 8 --write BENCHMARKS.md
    """
    from graphmem_bench import soak

    res = soak.run(ctx.obj["uri"], minutes, clients, progress=lambda m: click.echo(m, err=True))
    cmd = f"graphmem-bench soak --minutes {minutes:g} --clients {clients}" + (
        f" --write {write}" if write else ""
    )
    _publish(soak.markdown(res, cmd), "soak", write)


# The blind sets of block requests, by split: written in rounds, each held out until the
# next round's set was frozen.
SPLITS = {
    "dev": "block_requests",
    "round2": "block_requests_round2",
    "round3": "block_requests_round3",
    "round4": "block_requests_round4",
    "round5": "block_requests_round5",
    "round6": "block_requests_round6",
    "round7": "block_requests_round7",
    "round8": "block_requests_round8",
    "round9": "block_requests_round9",
    "round10": "block_requests_round10",
    "round11": "block_requests_round11",
    "round12": "block_requests_round12",
    "round13": "block_requests_round13",
    "round14": "block_requests_round14",
    "round15": "block_requests_round15",
    "round16": "block_requests_round16",
    "round17": "block_requests_round17",
    "round18": "block_requests_round18",
    "round19": "block_requests_round19",
    "round20": "block_requests_round20",
    "round21": "block_requests_round21",
    "heldout": "block_requests_heldout",
}


@main.command("block-requests")
@click.option(
    "--fixtures",
    "fixtures",
    default=FIXTURES_DEFAULT,
    show_default=True,
    type=click.Path(file_okay=False),
    callback=_fixture("The frozen sets of block requests (block_requests*/)"),
    help="The folder holding block_requests/, block_requests_round2/ … _round21/ "
    "and block_requests_heldout/.",
)
@click.option(
    "--split",
    type=click.Choice(list(SPLITS)),
    default="heldout",
    show_default=True,
    help="dev, round2 … round21: block_requests/, block_requests_round2/ … "
    "_round21/ (read while building); heldout: block_requests_heldout/ "
    "(round 22, never read).",
)
@click.option(
    "--mode",
    "modes",
    default="keyed,plain",
    show_default=True,
    help="How worlds are written, comma-separated: keyed (facts), plain (text only).",
)
@click.option(
    "--gates",
    default="slot,reading",
    show_default=True,
    help="Block gates to compare, comma-separated (slot, reading, margin, none).",
)
@click.option(
    "--embedder",
    default="e5",
    show_default=True,
    help="The memory's embedder (MemoryConfig.embedder): e5, none, ollama:<model>.",
)
@click.option(
    "--notes/--no-notes",
    default=False,
    show_default=True,
    help='Also write each person\'s note from the set ("junior coach at the club") as a '
    "record about them, first: what an agent was told about who people are.",
)
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
@click.pass_context
def bench_block_requests(
    ctx: click.Context,
    fixtures: Path,
    split: str,
    modes: str,
    gates: str,
    embedder: str,
    notes: bool,
    write: str | None,
) -> None:
    """Memory blocks for requests worded freshly over facts keyed with caller-chosen
    relation names, or written as plain text (the blind sets in tests/fixtures): clean,
    answerable left empty, empty when nothing answers, misattribution, stale; per
    category. The held-out split is reported in aggregate and per category only.

    \b
    Example:
      graphmem-bench block-requests --split heldout --write BENCHMARKS.md
    """
    from graphmem_bench import block_requests as br

    folder = fixtures / SPLITS[split]
    connect = _memories(ctx.obj["uri"], "block-requests-schema")
    results = {}
    for mode in [m.strip() for m in modes.split(",") if m.strip()]:
        if mode not in br.MODES:
            raise click.BadParameter(f"unknown mode {mode!r}; use {', '.join(br.MODES)}")
        for gate in [g.strip() for g in gates.split(",") if g.strip()]:
            if gate not in ("slot", "reading", "margin", "none"):
                raise click.BadParameter(f"unknown gate {gate!r}")
            results[f"{mode}, {gate}"] = br.run(
                folder,
                ["en", "ko"],
                split,
                lambda ns: connect(ns, embedder=embedder),
                {"gate": gate},
                progress=lambda m: click.echo(m, err=True),
                mode=mode,
                notes=notes,
            )
    cmd = (
        f"graphmem-bench block-requests --split {split} --mode {modes} --gates {gates}"
        f" --embedder {embedder}"
        + (" --notes" if notes else "")
        + (f" --write {write}" if write else "")
    )
    section = f"block-requests-{split}" + ("-notes" if notes else "")
    _publish(br.markdown_gates(results, cmd), section, write)


@main.command("fit-answer-head")
@click.option(
    "--fixtures",
    "fixtures",
    default=FIXTURES_DEFAULT,
    show_default=True,
    type=click.Path(file_okay=False),
    callback=_fixture("The frozen sets of block requests (block_requests*/)"),
    help="The folder holding the block_requests*/ sets.",
)
@click.option(
    "--splits",
    default=",".join(s for s in SPLITS if s != "heldout"),
    show_default=True,
    help="The development splits to fit on, comma-separated (never heldout).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Where to save the head (graphmem ships it as "
    "graphmem/reads/blocks/data/answer_head.npz, and the plain-text one as "
    "plain_head.npz beside it); without it, only the report.",
)
@click.option(
    "--plain",
    is_flag=True,
    help="Fit the plain-text head: the worlds written as plain text, rows the person's "
    "raw records.",
)
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
@click.pass_context
def bench_fit_answer_head(
    ctx: click.Context,
    fixtures: Path,
    splits: str,
    out: str | None,
    plain: bool,
    write: str | None,
) -> None:
    """Fit the answer head of the reading gate (one logistic model per language over the
    bundled e5's vectors) on the development splits of the block requests, choosing its
    penalty and decision points by leave-one-round-out cross-validation.

    \b
    Example:
      graphmem-bench fit-answer-head --out graphmem/reads/blocks/data/answer_head.npz
      graphmem-bench fit-answer-head --plain --out graphmem/reads/blocks/data/plain_head.npz
    """
    from graphmem.embedding import BundledE5
    from graphmem.reads.blocks.answer_head import save_head
    from graphmem_bench import answer_head_fit as fit

    names = [s.strip() for s in splits.split(",") if s.strip()]
    unknown = [n for n in names if n not in SPLITS or n == "heldout"]
    if unknown or len(names) < 2:
        dev = ", ".join(s for s in SPLITS if s != "heldout")
        raise click.BadParameter(
            f"use two or more development splits of {dev}"
            + (f"; not {', '.join(unknown)}" if unknown else "")
        )
    connect = _memories(ctx.obj["uri"], "fit-answer-head-schema")
    items = fit.collect(
        {n: fixtures / SPLITS[n] for n in names},
        lambda ns: connect(ns, embedder="e5"),
        progress=lambda m: click.echo(m, err=True),
        plain=plain,
    )
    report = fit.cross_validate(items)
    for lang, r in report.items():
        if r["best_right"] < r["gate_alone"]:
            click.echo(
                f"warning: {lang}: the best head decides {r['best_right']} right, the gate "
                f"alone {r['gate_alone']}; do not ship it",
                err=True,
            )
    if out:
        save_head(fit.fit_head(items, report, BundledE5.name), Path(out), plain=plain)
        click.echo(f"saved {out}", err=True)
    every = ",".join(s for s in SPLITS if s != "heldout")
    cmd = (
        "graphmem-bench fit-answer-head"
        + (f" --splits {splits}" if splits != every else "")
        + (" --plain" if plain else "")
        + (f" --out {out}" if out else "")
        + (f" --write {write}" if write else "")
    )
    section = "fit-plain-head" if plain else "fit-answer-head"
    _publish(fit.markdown(report, cmd, plain), section, write)


@main.command("namesakes")
@click.option("--people", default=10_000, show_default=True, type=click.IntRange(10, 1_000_000))
@click.option(
    "--given", default=10, show_default=True, type=click.IntRange(1, 10), help="Given names."
)
@click.option(
    "--records",
    "sizes",
    default="20000,100000",
    show_default=True,
    help="Records per run, comma-separated.",
)
@click.option("--requests", default=300, show_default=True, type=click.IntRange(1, 100_000))
@click.option(
    "--embedder",
    "embedders",
    default="none,e5",
    show_default=True,
    help="Embedders to run with, comma-separated (MemoryConfig.embedder).",
)
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
@click.pass_context
def bench_namesakes(
    ctx: click.Context,
    people: int,
    given: int,
    sizes: str,
    requests: int,
    embedders: str,
    write: str | None,
) -> None:
    """Blocks asked with the partner's given name among a thousand namesakes: empty
    blocks, the partner's current value, a namesake's lines, and block p50/p99 beside the
    embedder's own latency.

    \b
    Example:
      graphmem-bench namesakes --people 10000 --records 100000 --write BENCHMARKS.md
    """
    from graphmem_bench import namesakes

    connect = _memories(ctx.obj["uri"], "namesakes-schema")
    results = []
    try:
        counts = [int(x) for x in sizes.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"--records takes numbers, got {sizes!r}") from None
    for size in counts:
        for emb in [e.strip() for e in embedders.split(",") if e.strip()]:
            click.echo(f"{size:,} records, embedder {emb}", err=True)
            results.append(
                namesakes.run(
                    connect,
                    people=people,
                    given=given,
                    records=size,
                    requests=requests,
                    embedder=emb,
                    progress=lambda m: click.echo(m, err=True),
                )
            )
    cmd = (
        f"graphmem-bench namesakes --people {people} --given {given} --records {sizes}"
        f" --requests {requests} --embedder {embedders}" + (f" --write {write}" if write else "")
    )
    _publish(namesakes.markdown(results, cmd), "namesakes", write)


@main.command("vectors")
@click.option("--records", default=2000, show_default=True, type=click.IntRange(10, 1_000_000))
@click.option(
    "--writes",
    default=20,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="Writes timed until a block serves them by meaning.",
)
@click.option(
    "--requests",
    default=200,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="Blocks timed that embed their request, beside the embedder alone.",
)
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
@click.pass_context
def bench_vectors(
    ctx: click.Context, records: int, writes: int, requests: int, write: str | None
) -> None:
    """Vectors kept in Neo4j: ingest with and without the bundled embedder, the time to
    keep every vector, a restart that re-embeds nothing, and write-to-block by meaning.

    \b
    Example:
      graphmem-bench vectors --records 2000 --writes 20 --write BENCHMARKS.md
    """
    from graphmem_bench import vectors

    connect = _memories(ctx.obj["uri"], "vectors-schema")
    res = vectors.run(
        connect,
        records=records,
        writes=writes,
        requests=requests,
        progress=lambda m: click.echo(m, err=True),
    )
    cmd = f"graphmem-bench vectors --records {records} --writes {writes} --requests {requests}" + (
        f" --write {write}" if write else ""
    )
    _publish(vectors.markdown(res, cmd), "vectors", write)


@main.command("erase-disk")
@click.option(
    "--sizes", default="1000,20000", show_default=True, help="Records per run, comma-separated."
)
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
def bench_erase_disk(sizes: str, write: str | None) -> None:
    """Erased words still readable in a running Neo4j's files, and after `graphmem neo4j
    stop` (which compacts); the stop's cost. Runs on its own scratch server.

    \b
    Example:
      graphmem-bench erase-disk --sizes 1000,20000 --write BENCHMARKS.md
    """
    from graphmem_bench import erase_disk

    try:
        counts = [int(s) for s in sizes.split(",")]
    except ValueError:
        raise click.BadParameter("sizes must be whole numbers, e.g. 1000,20000") from None
    if any(not 100 <= c <= 1_000_000 for c in counts):
        raise click.BadParameter("each size must be between 100 and 1,000,000")
    rows = erase_disk.run(counts, progress=lambda m: click.echo(m, err=True))
    cmd = f"graphmem-bench erase-disk --sizes {sizes}" + (f" --write {write}" if write else "")
    _publish(erase_disk.markdown(rows, cmd), "erase-disk", write)


@main.command("faults")
@click.option("--compactions", default=20, show_default=True, type=click.IntRange(1, 200))
@click.option("--soak-minutes", default=10.0, show_default=True, type=click.FloatRange(0, 24 * 60))
@click.option("--outage-calls", default=10, show_default=True, type=click.IntRange(1, 1000))
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
def bench_faults(
    compactions: int, soak_minutes: float, outage_calls: int, write: str | None
) -> None:
    """Compactions under writers (Python and service), kill -9 at each compaction step,
    every route with Neo4j stopped, and a soak with erases and a compaction. Runs on its
    own scratch server.

    \b
    Example:
      graphmem-bench faults --compactions 20 --soak-minutes 10 --write BENCHMARKS.md
    """
    from graphmem_bench import faults

    res = faults.run(
        compactions, soak_minutes, outage_calls, progress=lambda m: click.echo(m, err=True)
    )
    cmd = (
        f"graphmem-bench faults --compactions {compactions} --soak-minutes {soak_minutes:g} "
        f"--outage-calls {outage_calls}" + (f" --write {write}" if write else "")
    )
    _publish(faults.markdown(res, cmd), "faults", write)


@main.command("interfaces")
@click.option("--requests", default=200, show_default=True, help="Block requests per interface.")
@click.option(
    "--cli-calls", default=5, show_default=True, help="CLI calls (each starts a process)."
)
@click.option("--write", "write", type=click.Path(dir_okay=False), default=None)
@click.pass_context
def bench_interfaces(ctx: click.Context, requests: int, cli_calls: int, write: str | None) -> None:
    """The block through every interface in one run: in-process, REST, MCP (HTTP and
    stdio), CLI; latency per call and whether the blocks are identical.

    \b
    Example:
      graphmem-bench interfaces --requests 200 --write BENCHMARKS.md
    """
    from graphmem_bench import interfaces

    res = interfaces.run(
        ctx.obj["uri"],
        requests=requests,
        cli_calls=cli_calls,
        progress=lambda m: click.echo(m, err=True),
    )
    cmd = f"graphmem-bench interfaces --requests {requests}" + (
        f" --write {write}" if write else ""
    )
    _publish(interfaces.markdown(res, cmd), "interfaces", write)


@main.command("extraction")
@click.option(
    "--write",
    "write",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also replace the extraction section of this Markdown file.",
)
@click.option(
    "--misses",
    "misses_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Write every miss and wrong prediction, per language, here.",
)
@click.option(
    "--fixtures",
    "fixtures",
    default=f"{FIXTURES_DEFAULT}/extraction",
    show_default=True,
    type=click.Path(file_okay=False),
    callback=_fixture("The frozen extraction corpus (extraction/chat_en.jsonl, chat_ko.jsonl)"),
    help="The folder holding the frozen corpus, chat_en.jsonl and chat_ko.jsonl.",
)
def bench_extraction(write: str | None, misses_dir: str | None, fixtures: Path) -> None:
    """Chat extraction on the frozen held-out corpus (tests/fixtures/extraction): precision,
    recall and closing the right value per language, misses per category, speed.

    \b
    Example:
      graphmem-bench extraction --write BENCHMARKS.md --misses docs
    """
    from graphmem.extract.slots import SlotRuleExtractor
    from graphmem_bench import extraction as ex

    scores = ex.score_extractor(fixtures)
    baseline = ex.score_extractor(fixtures, factory=lambda t: SlotRuleExtractor(t["participants"]))
    rate = ex.throughput(fixtures)
    cmd = (
        "graphmem-bench extraction"
        + (f" --write {write}" if write else "")
        + (f" --misses {misses_dir}" if misses_dir else "")
    )
    text = ex.markdown(scores, cmd, rate, baseline)
    if misses_dir:
        for p in ex.write_misses(scores, Path(misses_dir)):
            text += f"\nEvery miss: [{p.name}]({p.as_posix()})\n"
    _publish(text, "extraction", write)


@main.command("scale")
@click.option(
    "--sizes",
    default="10000,100000,1000000",
    show_default=True,
    help="Store sizes in records, comma-separated.",
)
@click.option(
    "--writer-seconds",
    default=30.0,
    show_default=True,
    help="How long each size's deadline run writes and reads.",
)
@click.option(
    "--write",
    "write",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also replace the scale section of this Markdown file.",
)
@click.option("--plots", "plot_dir", type=click.Path(file_okay=False), default=None)
@click.pass_context
def bench_scale(
    ctx: click.Context, sizes: str, writer_seconds: float, write: str | None, plot_dir: str | None
) -> None:
    """How cost grows with the store: ingest, evidence, blocks (snapshot and fresh), a
    deadline under a writer, snapshot build time and memory, Neo4j's size on disk.

    \b
    Example:
      graphmem-bench scale --sizes 10000,100000,1000000 --write BENCHMARKS.md --plots docs
    """
    from graphmem_bench import scale

    connect = _memories(ctx.obj["uri"], "scale-schema")
    size_list = [int(x) for x in sizes.split(",") if x.strip()]
    if not size_list or min(size_list) < 1000 or max(size_list) > 5_000_000:
        raise click.BadParameter("sizes must be between 1,000 and 5,000,000", param_hint="--sizes")
    rows = scale.sweep(
        connect, size_list, lambda m: click.echo(m, err=True), writer_seconds=writer_seconds
    )
    cmd = (
        f"graphmem-bench scale --sizes {sizes} --writer-seconds {writer_seconds:g}"
        + (f" --write {write}" if write else "")
        + (f" --plots {plot_dir}" if plot_dir else "")
    )
    _publish(
        scale.markdown(rows, cmd),
        "scale",
        write,
        scale.plots(rows, Path(plot_dir)) if plot_dir else (),
    )


@main.command("workers")
@click.option(
    "--size",
    default=100_000,
    show_default=True,
    type=click.IntRange(1000, 2_000_000),
    help="Records in the store served.",
)
@click.option(
    "--workers",
    "workers",
    default="1,2",
    show_default=True,
    help="Worker counts to run the service with.",
)
@click.option("--connections", default=32, show_default=True, type=click.IntRange(1, 1024))
@click.option("--seconds", default=20.0, show_default=True, type=click.FloatRange(1, 3600))
@click.option(
    "--write",
    "write",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also replace the workers section of this Markdown file.",
)
@click.pass_context
def bench_workers(
    ctx: click.Context, size: int, workers: str, connections: int, seconds: float, write: str | None
) -> None:
    """/block and /evidence over HTTP with `graphmem serve --workers N`, against the
    in-process call in the same run.

    \b
    Example:
      graphmem-bench workers --size 100000 --workers 1,2 --write BENCHMARKS.md
    """
    from graphmem_bench import workers as wk

    counts = [int(x) for x in workers.split(",") if x.strip()]
    rows = wk.run(
        ctx.obj["uri"], size, counts, connections, seconds, lambda m: click.echo(m, err=True)
    )
    cmd = (
        f"graphmem-bench workers --size {size} --workers {workers} --connections "
        f"{connections} --seconds {seconds:g}" + (f" --write {write}" if write else "")
    )
    _publish(wk.markdown(rows, cmd, size, connections), "workers", write)


def _memories(uri: str | None, schema_namespace: str) -> Callable[..., Memory]:
    """Start Neo4j and install the schema once, then open namespaces without reinstalling
    it; ``connect(ns, **overrides)`` takes ``MemoryConfig`` overrides. Each Memory gets
    its own set of the baseline evidence controls."""
    from graphmem.memory import Memory
    from graphmem_bench.controls import baselines

    Memory.connect(uri, schema_namespace).close()

    def connect(ns: str, **overrides: Any) -> Memory:
        # Benchmarks that do not measure meaning keep the lexical path they were
        # measured on; those that do pass their embedder.
        overrides.setdefault("embedder", "none")
        return Memory.connect(
            uri, ns, install_schema=False, evidence_controls=baselines(), **overrides
        )

    return connect


def _publish(text: str, section: str, write: str | None, figures: Iterable[Path] = ()) -> None:
    """Print a benchmark's Markdown (with its figures) and, with --write, replace its
    section of that file."""
    for p in figures:
        text += f"\n![{p.stem}]({p.as_posix()})\n"
    click.echo(text)
    if write:
        _replace_section(Path(write), section, text)


def _replace_section(path: Path, name: str, body: str) -> None:
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{start}\n{body}{end}"
    if start in text and end in text:
        text = text[: text.index(start)] + block + text[text.index(end) + len(end) :]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
