// Current value of every key in the namespace (the current graph).
// The hint keeps the read inside the namespace index: on a fresh database the planner
// otherwise scanned the global head_of index (every tenant's heads).
MATCH (v:Version {ns: $ns})
USING INDEX SEEK v:Version(ns)
WHERE v.head_of IS NOT NULL
RETURN v.key AS key, v.subject AS subject, v.relation AS relation, v.value AS value,
       v.status AS status
ORDER BY key
