// The namespace's unresolved records changed (some were written or a record was erased):
// evidence readers rebuild their raw-record index when this count moves, and only then.
MATCH (n:Namespace {ns: $ns})
SET n.raw_writes = coalesce(n.raw_writes, 0) + 1
