// The subgraph behind one key, for Neo4j Browser: versions, evidence, operations, tombstones.
MATCH (v:Version {kid: $kid})
OPTIONAL MATCH p = (v)-[:SUPPORTED_BY|SUPERSEDES|ALTERNATIVE_OF|SUBJECT|OBJECT]->()
OPTIONAL MATCH q = (:Tombstone)-[:REVOKES]->(v)
RETURN v, p, q
