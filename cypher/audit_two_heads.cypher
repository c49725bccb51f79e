// Keys with more than one head. Must return nothing.
MATCH (v:Version {ns: $ns})
WHERE v.head_of IS NOT NULL OR v.status = 'active'
WITH v.kid AS kid, collect(v.uid) AS heads
WHERE size(heads) > 1
RETURN kid, heads
