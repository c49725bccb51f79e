// Benchmark only (graphmem-bench tenants): every node of a namespace with its labels and
// properties, read through each label's namespace index.
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
RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props
