// Benchmark only (graphmem-bench tenants): the UNWIND floor, nodes. No provenance logic:
// create each node with its labels and properties (indexes and constraints still apply).
UNWIND $rows AS r
CREATE (n:$(r.labels))
SET n = r.props
RETURN r.id AS old, elementId(n) AS new
