// Versions that supersede themselves through a chain. Must return nothing.
// The hint keeps the read inside the namespace index: on a fresh database the planner
// otherwise scanned the global head_of index (every tenant's heads).
MATCH (v:Version {ns: $ns})
USING INDEX SEEK v:Version(ns)
WHERE EXISTS { (v)-[:SUPERSEDES]->+(v) }
RETURN v.uid AS uid
