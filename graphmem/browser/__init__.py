"""What Neo4j Browser needs to show graphmem's graph to a person: a style and a guide.

Versions are captioned by their value and coloured by their status label (current,
superseded, contradicted, contested, revoked); records (``Evidence``) by their text,
entities by their name, operations by their kind, tombstones by why they exist. The style
is GraSS in its JSON form, applied with Browser's ``:style`` command; the local server runs
it on every connect (``browser.post_connect_cmd``), and on another server a person pastes
``graphmem.browser.style_command()`` into the editor once. The guide (``guide_html``),
served by ``graphmem serve`` at ``/browser/guide.html``, puts the audit queries one click
away: ``:play http://127.0.0.1:8000/browser/guide.html``.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

__all__ = [
    "GRAPH_STYLE",
    "STATUS_COLOURS",
    "guide_html",
    "post_connect_command",
    "style_command",
]

STATUS_COLOURS = {
    "Current": "#2E9E5B",  # the value memory holds now
    "Superseded": "#A5ABB6",  # replaced by a newer value
    "Contradicted": "#F08C3A",  # lost a conflict
    "Contested": "#F2C12E",  # in a conflict nobody settled yet
    "Revoked": "#D9534F",  # taken back
}


def _node(colour: str, caption: str, diameter: int = 60, text: str = "#FFFFFF") -> dict[str, Any]:
    return {
        "color": colour,
        "border-color": colour,
        "text-color-internal": text,
        "caption": caption,
        "diameter": f"{diameter}px",
        "font-size": "11px",
    }


# Order matters: Browser applies matching rules in order, so the status colours come after
# the Version rule they refine.
GRAPH_STYLE: dict[str, dict[str, Any]] = {
    "node.Version": _node("#A5ABB6", "{value}", 70),
    **{
        f"node.{label}": {"color": colour, "border-color": colour}
        for label, colour in STATUS_COLOURS.items()
    },
    "node.Evidence": _node("#4C8EDA", "{text}", 90),
    "node.Entity": _node("#8E6CC1", "{name}", 55),
    "node.Operation": _node("#D7CCC8", "{kind}", 45, text="#333333"),
    "node.Tombstone": _node("#333333", "{reason}", 45),
    "relationship": {"caption": "<type>", "font-size": "9px", "shaft-width": "1px"},
}


def style_command() -> str:
    """``:style {...}``: paste it into Neo4j Browser's editor to apply graphmem's style."""
    return ":style " + json.dumps(GRAPH_STYLE, separators=(",", ":"))


def post_connect_command() -> str:
    """The value of Neo4j's ``browser.post_connect_cmd`` that applies the style."""
    return style_command().removeprefix(":")


def _slide(title: str, lead: str, body: str) -> str:
    return (
        f'<slide class="row-fluid"><div class="col-sm-3"><h3>{escape(title)}</h3>'
        f'<p class="lead">{lead}</p></div><div class="col-sm-9">{body}</div></slide>'
    )


def _runnable(query: str) -> str:
    return f'<pre class="pre-scrollable code runnable">{escape(query.strip())}</pre>'


def guide_html(namespace: str = "default") -> str:
    """A Neo4j Browser guide (``:play URL``): the audits and the 'why' graph, one slide
    each, every query runnable with one click. Built from ``cypher/`` so it is never stale."""
    from graphmem._cypher import cypher, query_names

    def comment(query: str) -> str:
        lines = [ln.removeprefix("//").strip() for ln in query.splitlines() if ln.startswith("//")]
        return escape(" ".join(lines))

    slides = [
        _slide(
            "graphmem",
            "Why does memory hold this value? Each slide is a query you can run.",
            "<p>Set the namespace once, then click a query to put it in the editor.</p>"
            + _runnable(f":param ns => {json.dumps(namespace)}")
            + "<p>Versions are coloured by status: <b>Current</b> green, <b>Superseded</b> grey,"
            " <b>Contradicted</b> orange, <b>Contested</b> yellow, <b>Revoked</b> red; records"
            " (<b>Evidence</b>) are blue and show their text.</p>",
        )
    ]
    slides.append(
        _slide(
            "Why: one fact",
            "Every version of one fact, the records behind each, what it "
            "replaced. <code>graphmem why</code> prints the key id.",
            "<p>Put the subject (lower case) and relation in the key id:</p>"
            + _runnable(f':param kid => {json.dumps(namespace)[:-1]}/subject\\u241frelation"')
            + _runnable(cypher("why_graph")),
        )
    )
    for name in query_names("audit_"):
        query = cypher(name)
        slides.append(
            _slide(name.removeprefix("audit_").replace("_", " "), comment(query), _runnable(query))
        )
    slides.append(
        _slide(
            "Style",
            "graphmem's local server applies this style on connect; on another server, "
            "run it once.",
            _runnable(style_command()),
        )
    )
    return (
        '<article class="guide"><carousel class="deck container-fluid">'
        + "".join(slides)
        + "</carousel></article>"
    )
