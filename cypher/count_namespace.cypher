// Nodes and relationships of one namespace, by label and type. Each label is read through
// its namespace index, so the count costs what this namespace holds (a label-free
// `MATCH (n {ns: $ns})` scanned every node of every tenant).
CALL () {
  MATCH (n:Evidence {ns: $ns}) RETURN n, 'Evidence' AS label
  UNION ALL
  MATCH (n:Entity {ns: $ns}) RETURN n, 'Entity' AS label
  UNION ALL
  MATCH (n:Version {ns: $ns}) RETURN n, 'Version' AS label
  UNION ALL
  MATCH (n:Operation {ns: $ns}) RETURN n, 'Operation' AS label
  UNION ALL
  MATCH (n:Tombstone {ns: $ns}) RETURN n, 'Tombstone' AS label
  UNION ALL
  MATCH (n:Namespace {ns: $ns}) RETURN n, 'Namespace' AS label
  UNION ALL
  MATCH (n:Mention {ns: $ns}) RETURN n, 'Mention' AS label
}
RETURN label, count(n) AS nodes, sum(COUNT { (n)-->() }) AS relationships
ORDER BY label
