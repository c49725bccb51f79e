// Every version of the namespace with its keys and evidence: the in-process snapshot
// the comparison controls (prior_refresh, stale_closure, BM25, ...) read from.
MATCH (v:Version {ns: $ns})
USING INDEX SEEK v:Version(ns)
MATCH (v)-[:SUBJECT]->(s:Entity)
MATCH (v)-[:OBJECT]->(o:Entity)
RETURN v.uid AS uid, v.key AS key, v.subject AS subject, v.relation AS relation,
       v.value AS value, v.status AS status, v.head_of IS NOT NULL AS is_head, v.pos AS pos,
       s.key AS s, o.key AS o,
       [(v)-[:SUPERSEDES]->(p:Version) | p.uid] AS supersedes,
       [(v)-[:SUPPORTED_BY]->(e:Evidence) | e.pos] AS evidence
