// Meaning: every vector the namespace holds, with the text it was made from (a record's
// text, or a current value's subject, relation and value), read once into a process.
CALL (*) {
  MATCH (e:Evidence {ns: $ns})
  USING INDEX SEEK e:Evidence(ns)
  WHERE e.embedding IS NOT NULL
  RETURN 'record' AS kind, e.text AS text, null AS subject, null AS relation, null AS value,
         null AS speaker, null AS observed_at, null AS prev, e.embedding AS vector
  UNION ALL
  MATCH (e:Unresolved {ns: $ns})
  USING INDEX SEEK e:Unresolved(ns)
  WHERE e.turn_embedding IS NOT NULL
  OPTIONAL MATCH (p:Evidence {ns: $ns, pos: e.pos - 1})
  USING INDEX SEEK p:Evidence(ns, pos)
  WHERE p:Unresolved
  RETURN 'turn' AS kind, e.text AS text, null AS subject, null AS relation, null AS value,
         e.speaker AS speaker, e.observed_at AS observed_at,
         CASE WHEN p IS NULL THEN null
              ELSE {text: p.text, speaker: p.speaker, observed_at: p.observed_at} END AS prev,
         e.turn_embedding AS vector
  UNION ALL
  MATCH (v:Version {ns: $ns})
  USING INDEX SEEK v:Version(ns)
  WHERE v.head_of IS NOT NULL AND v.embedding IS NOT NULL
  RETURN 'fact' AS kind, null AS text, v.subject AS subject, v.relation AS relation,
         v.value AS value, null AS speaker, null AS observed_at, null AS prev,
         v.embedding AS vector
}
RETURN kind, text, subject, relation, value, speaker, observed_at, prev, vector
