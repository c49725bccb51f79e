// Open conflicts: keys whose head is contested, with the competing values.
MATCH (h:Version {ns: $ns, status: 'contested'})
USING INDEX SEEK h:Version(ns)
WHERE h.head_of IS NOT NULL
RETURN h.subject AS subject, h.relation AS relation, h.value AS head_value,
       [(a:Version)-[:ALTERNATIVE_OF]->(h) | a.value] AS alternatives
ORDER BY subject, relation
