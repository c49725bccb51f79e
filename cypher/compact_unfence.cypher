// Compaction fence lowered (after a failure; the rewritten database never holds one).
MATCH (f:GraphmemFence)
DELETE f
