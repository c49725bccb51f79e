// Compaction, step 1: every node of the database with its labels and properties, but
// the fence. elementId is only a key for the relationships below; the rewritten store
// gets new ones.
MATCH (n)
WHERE NOT n:GraphmemFence
RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props
