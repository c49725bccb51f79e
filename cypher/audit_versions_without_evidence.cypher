// Versions no record supports. Must return nothing.
MATCH (v:Version {ns: $ns})
USING INDEX SEEK v:Version(ns)
WHERE NOT (v)-[:SUPPORTED_BY]->(:Evidence)
RETURN v.uid AS uid, v.subject AS subject, v.relation AS relation
