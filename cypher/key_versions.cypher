// Every version of the given keys, with the edges the controller needs.
UNWIND $kids AS kid
MATCH (v:Version {kid: kid})
RETURN v {
  .*,
  supersedes: [(v)-[:SUPERSEDES]->(p:Version) | p.uid],
  alternative_of: head([(v)-[:ALTERNATIVE_OF]->(a:Version) | a.uid]),
  evidence: [(v)-[:SUPPORTED_BY]->(e:Evidence) | e.uid]
} AS v
