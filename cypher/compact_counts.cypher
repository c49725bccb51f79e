// Compaction: what must be there before and after the rewrite (the fence not counted).
CALL () { MATCH (n) WHERE NOT n:GraphmemFence RETURN count(n) AS nodes }
CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships }
RETURN nodes, relationships
