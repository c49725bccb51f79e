// Keys with more than one head. Must return nothing.
// The hint keeps the read inside the namespace index: on a fresh database the planner
// otherwise scanned the global head_of index (every tenant's heads).
MATCH (v:Version {ns: $ns})
USING INDEX SEEK v:Version(ns)
WHERE v.head_of IS NOT NULL OR v.status = 'active'
WITH v.kid AS kid, collect(v.uid) AS heads
WHERE size(heads) > 1
RETURN kid, heads
