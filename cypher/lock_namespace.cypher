// Taken first in every write transaction: a write lock on the namespace's node
// serializes writers of one namespace (readers are never blocked). While a compaction
// fence holds, nothing is written and the fence is returned: the write is refused.
OPTIONAL MATCH (fence:GraphmemFence {name: 'compaction'})
WHERE fence.until > timestamp()
CALL (fence) {
  WITH fence WHERE fence IS NULL
  MERGE (n:Namespace {ns: $ns})
  SET n.writes = coalesce(n.writes, 0) + 1
}
RETURN fence IS NOT NULL AS fenced
