// Compaction: a temporary index so relationships find their rewritten ends.
CREATE INDEX graphmem_compacting IF NOT EXISTS FOR (n:GraphmemCompacting) ON (n.compact_id)
