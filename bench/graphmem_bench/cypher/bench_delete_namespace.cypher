// Benchmark only (graphmem-bench tenants): delete one namespace's nodes, in batches.
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
  UNION ALL
  MATCH (n:Namespace {ns: $ns}) RETURN n
}
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS
