// Why do you remember this? Every version of one key with its evidence, what it
// replaced, its alternatives and tombstones. Parameters: $kid ("namespace/key").
MATCH (v:Version {kid: $kid})
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
