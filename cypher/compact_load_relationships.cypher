// Compaction: relationships written again between the rewritten nodes.
UNWIND $rows AS r
MATCH (a:GraphmemCompacting {compact_id: r.a})
MATCH (b:GraphmemCompacting {compact_id: r.b})
CREATE (a)-[x:$(r.type)]->(b)
SET x = r.props
