// Meaning: forget the namespace's vectors (records, current values, entity names) and
// their model, a batch at a time (re-embed).
CALL (*) {
  MATCH (e:Evidence {ns: $ns})
  USING INDEX SEEK e:Evidence(ns)
  WHERE e.embedding IS NOT NULL OR e.turn_embedding IS NOT NULL
  RETURN e AS n
  LIMIT $limit
  UNION ALL
  MATCH (v:Version {ns: $ns})
  USING INDEX SEEK v:Version(ns)
  WHERE v.embedding IS NOT NULL
  RETURN v AS n
  LIMIT $limit
  UNION ALL
  MATCH (en:Entity {ns: $ns})
  USING INDEX SEEK en:Entity(ns)
  WHERE en.embedding IS NOT NULL
  RETURN en AS n
  LIMIT $limit
}
REMOVE n.embedding, n.turn_embedding
RETURN count(n) AS cleared
