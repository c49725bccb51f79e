// Meaning: the namespace's records, and its current values, that hold no vector yet
// (written before an embedder served blocks here, or since). Each has its own
// `embedding`, in the model the namespace's node records. A raw record (a turn) also has
// a `turn_embedding`: its text after the turn before it (evidence ranks turns by it).
CALL (*) {
  MATCH (e:Evidence {ns: $ns})
  USING INDEX SEEK e:Evidence(ns)
  WHERE e.embedding IS NULL
  RETURN 'record' AS kind, e.uid AS uid, e.text AS text, null AS subject, null AS relation,
         null AS value, null AS speaker, null AS observed_at, null AS prev
  LIMIT $limit
  UNION ALL
  MATCH (e:Unresolved {ns: $ns})
  USING INDEX SEEK e:Unresolved(ns)
  WHERE e.turn_embedding IS NULL
  OPTIONAL MATCH (p:Evidence {ns: $ns, pos: e.pos - 1})
  USING INDEX SEEK p:Evidence(ns, pos)
  WHERE p:Unresolved
  RETURN 'turn' AS kind, e.uid AS uid, e.text AS text, null AS subject, null AS relation,
         null AS value, e.speaker AS speaker, e.observed_at AS observed_at,
         CASE WHEN p IS NULL THEN null
              ELSE {uid: p.uid, text: p.text, speaker: p.speaker, observed_at: p.observed_at}
         END AS prev
  LIMIT $limit
  UNION ALL
  MATCH (v:Version {ns: $ns})
  USING INDEX SEEK v:Version(ns)
  WHERE v.head_of IS NOT NULL AND v.embedding IS NULL
  RETURN 'fact' AS kind, v.uid AS uid, null AS text, v.subject AS subject,
         v.relation AS relation, v.value AS value, null AS speaker, null AS observed_at,
         null AS prev
  LIMIT $limit
}
RETURN kind, uid, text, subject, relation, value, speaker, observed_at, prev
