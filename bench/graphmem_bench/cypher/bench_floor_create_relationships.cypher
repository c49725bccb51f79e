// Benchmark only (graphmem-bench tenants): the UNWIND floor, relationships between nodes
// the floor created (found by element id).
UNWIND $rows AS r
MATCH (a) WHERE elementId(a) = r.source
MATCH (b) WHERE elementId(b) = r.target
CREATE (a)-[e:$(r.type)]->(b)
SET e = r.props
