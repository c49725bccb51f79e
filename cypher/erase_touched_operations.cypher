// Operations an erase keeps (they also touched a version that stays: a revoke that took
// back an erased value and restored an older one) whose fact may name an erased value.
// The erase rewrites their fact without it.
UNWIND $versions AS vu
MATCH (op:Operation)-[:APPLIED_TO]->(v:Version {uid: vu})
WITH op, collect(v.value) AS erased
WITH op, erased,
     [(op)-[:APPLIED_TO]->(w:Version) WHERE NOT w.uid IN $versions | w.value] AS kept
WHERE kept <> []
RETURN op.uid AS uid, op.fact AS fact, erased, kept
