// Why do you remember this? Every version of one key with its evidence, what it
// replaced, its alternatives and tombstones. Parameters: $kid ("namespace/key"), the
// newest $limit versions, the newest $evidence_limit records of each.
MATCH (v:Version {kid: $kid})
WITH v ORDER BY coalesce(v.said_pos, v.pos) DESC LIMIT $limit
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
