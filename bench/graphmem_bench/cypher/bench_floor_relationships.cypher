// Benchmark only (graphmem-bench tenants): every relationship leaving a node of the
// namespace (graphmem never links across namespaces).
CALL () {
  MATCH (n:Evidence {ns: $ns}) RETURN n
  UNION ALL
  MATCH (n:Entity {ns: $ns}) RETURN n
  UNION ALL
  MATCH (n:Version {ns: $ns}) RETURN n
  UNION ALL
  MATCH (n:Operation {ns: $ns}) RETURN n
  UNION ALL
  MATCH (n:Tombstone {ns: $ns}) RETURN n
}
MATCH (n)-[r]->(m)
RETURN elementId(n) AS source, elementId(m) AS target, type(r) AS type,
       properties(r) AS props
