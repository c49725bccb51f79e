// Taken first in every write transaction: a write lock on the namespace's node
// serializes writers of one namespace (readers are never blocked).
MERGE (n:Namespace {ns: $ns})
SET n.writes = coalesce(n.writes, 0) + 1
