"""Explanations: why a value is remembered, what it replaced, and the past.

``explain`` gathers every version of a key with its evidence into an ``Explanation`` and
the Cypher an auditor can run (with a Neo4j Browser link that opens it). ``believed_at``
answers "what did memory believe at time t" by replaying the key's operation log through
the same controller that wrote it.
"""

from __future__ import annotations

import hashlib
import json
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from graphmem._cypher import cypher
from graphmem.domain.controller import Controller, FactContext, KeyState, Plan
from graphmem.domain.keys import KEY_SEP, make_key, namespaced_key
from graphmem.domain.model import Fact, Intent
from graphmem.results import Explanation
from graphmem.store.protocol import Store

__all__ = ["BrowserTarget", "believed_at", "browser_link", "explain"]


@dataclass(frozen=True)
class BrowserTarget:
    """Where Neo4j Browser is, so an explanation can carry a link that opens its query."""

    http_url: str | None
    bolt_url: str | None
    no_auth: bool


def explain(
    store: Store,
    ns: str,
    subject: str,
    relation: str,
    *,
    set_valued: bool,
    browser: BrowserTarget | None = None,
    limit: int = 100,
    evidence_limit: int = 20,
) -> Explanation:
    """The newest ``limit`` versions of (subject, relation), of each member when
    set-valued, each with its newest ``evidence_limit`` records."""
    key = make_key(subject, relation)
    versions = store.key_versions_detail(
        ns, key, set_valued=set_valued, limit=limit, evidence_limit=evidence_limit
    )
    heads = [v for v in versions if v.get("is_head")]
    kid = namespaced_key(ns, key) + (KEY_SEP if set_valued else "")
    params = {"kid": kid}
    link = None
    if browser is not None and browser.http_url and not set_valued:
        link = browser_link(
            browser.http_url, cypher("why_graph"), params, browser.bolt_url, no_auth=browser.no_auth
        )
    return Explanation(
        subject,
        relation,
        heads[-1] if heads else None,
        versions,
        cypher=cypher("why_graph"),
        params=params,
        browser_url=link,
    )


def _fact_index(op_uid: str) -> int:
    """A small stable number per operation (the replayed version ids depend on it)."""
    return int.from_bytes(hashlib.blake2b(op_uid.encode(), digest_size=2).digest(), "big")


def believed_at(store: Store, controller: Controller, ns: str, key: str, at: str) -> str | None:
    """The value memory held for ``key`` at transaction time ``at``."""
    state, plan = KeyState(key), Plan()
    for entry in store.oplog_until(ns, key, at):
        f = entry.fact or {}
        fact = Fact(f["subject"], f["relation"], f.get("value") or "", Intent(f["intent"]))
        ctx = FactContext(
            record_uid=entry.record_uid,
            pos=entry.pos,
            observed_at=entry.at,
            stated_at=f.get("stated_at"),
            authority=int(f.get("authority") or 1),
            source=f.get("source"),
            fact_index=_fact_index(entry.uid),
        )
        controller.apply(state, fact, ctx, plan)
    head = state.head()
    return head.value if head else None


def cypher_literal(value: Any) -> str:
    """``value`` as a Cypher literal a person can read and copy: the key separator, which
    Browser's fonts draw as an empty box, is written as its escape."""
    return json.dumps(value, ensure_ascii=False).replace(KEY_SEP, "\\u" + f"{ord(KEY_SEP):04x}")


def browser_link(
    http_url: str,
    query: str,
    params: Mapping[str, Any],
    bolt_url: str | None = None,
    no_auth: bool = False,
) -> str:
    """A Neo4j Browser URL that connects and opens with the query in the editor: one click
    on Run shows the evidence. Parameters are written into the query as literals (JSON
    string escapes are Cypher's), so the auditor sees exactly what runs."""
    text = query
    for k, v in params.items():
        text = text.replace(f"${k}", cypher_literal(v))
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("//")]
    args = {}
    if bolt_url:
        args["dbms"] = bolt_url
    if no_auth:
        args["preselectAuthMethod"] = "NO_AUTH"
    args.update(cmd="edit", arg="\n".join(lines))
    query_string = urllib.parse.urlencode(args, quote_via=urllib.parse.quote)
    return f"{http_url.rstrip('/')}/browser/?{query_string}"
