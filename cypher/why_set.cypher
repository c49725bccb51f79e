// Why, for a set-valued relation: the member keys of (subject, relation), current
// members first, then the newest, $limit versions in all.
MATCH (v:Version)
WHERE v.kid STARTS WITH $prefix
WITH v ORDER BY v.head_of IS NOT NULL DESC, coalesce(v.said_pos, v.pos) DESC LIMIT $limit
RETURN v {
  .*,
  is_head: v.head_of IS NOT NULL,
  supersedes: [(v)-[:SUPERSEDES]->(p:Version) | p.uid],
  alternative_of: head([(v)-[:ALTERNATIVE_OF]->(a:Version) | a.uid]),
  // The newest supporting records (a value said a thousand times shows its latest).
  evidence: COLLECT {
    MATCH (v)-[:SUPPORTED_BY]->(e:Evidence)
    WITH e ORDER BY e.pos DESC LIMIT $evidence_limit
    RETURN e {.record_id, .text, .pos, .speaker, .observed_at, .stated_at, .source}
  },
  evidence_count: COUNT { (v)-[:SUPPORTED_BY]->(:Evidence) },
  tombstones: [(t:Tombstone)-[:REVOKES]->(v) | t {.uid, .at, .reason}]
} AS version
ORDER BY v.pos
