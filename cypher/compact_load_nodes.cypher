// Compaction: nodes written again into the empty store, each with a temporary number.
UNWIND $rows AS r
CREATE (n:GraphmemCompacting:$(r.labels))
SET n = r.props, n.compact_id = r.c
