// Current value of every key in the namespace (the current graph).
MATCH (v:Version {ns: $ns})
WHERE v.head_of IS NOT NULL
RETURN v.key AS key, v.subject AS subject, v.relation AS relation, v.value AS value,
       v.status AS status
ORDER BY key
