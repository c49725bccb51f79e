// Values taken back, with the tombstone that revoked each.
MATCH (t:Tombstone {ns: $ns})-[:REVOKES]->(v:Version)
RETURN v.subject AS subject, v.relation AS relation, v.value AS value, t.at AS revoked_at
ORDER BY revoked_at
