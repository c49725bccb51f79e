// Why, for a set-valued relation: every member key of (subject, relation).
MATCH (v:Version)
WHERE v.kid STARTS WITH $prefix
RETURN v {
  .*,
  is_head: v.head_of IS NOT NULL,
  supersedes: [(v)-[:SUPERSEDES]->(p:Version) | p.uid],
  alternative_of: head([(v)-[:ALTERNATIVE_OF]->(a:Version) | a.uid]),
  evidence: [(v)-[:SUPPORTED_BY]->(e:Evidence) |
             e {.record_id, .text, .pos, .speaker, .observed_at, .stated_at, .source}],
  tombstones: [(t:Tombstone)-[:REVOKES]->(v) | t {.uid, .at, .reason}]
} AS version
ORDER BY v.pos
