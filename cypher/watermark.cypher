// Changes when anything in the namespace changes: every write transaction (records,
// operations, erasures) counts itself on the namespace's node as it takes its lock. One
// node read, where counting the namespace's records grew with the store.
OPTIONAL MATCH (n:Namespace {ns: $ns})
RETURN coalesce(n.writes, 0) AS writes
