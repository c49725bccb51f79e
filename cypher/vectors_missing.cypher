// Meaning: the namespace's records, and its current values, that hold no vector yet
// (written before an embedder served blocks here, or since). Each has its own
// `embedding`, in the model the namespace's node records.
CALL (*) {
  MATCH (e:Evidence {ns: $ns})
  USING INDEX SEEK e:Evidence(ns)
  WHERE e.embedding IS NULL
  RETURN 'record' AS kind, e.uid AS uid, e.text AS text, null AS subject, null AS relation,
         null AS value
  LIMIT $limit
  UNION ALL
  MATCH (v:Version {ns: $ns})
  USING INDEX SEEK v:Version(ns)
  WHERE v.head_of IS NOT NULL AND v.embedding IS NULL
  RETURN 'fact' AS kind, v.uid AS uid, null AS text, v.subject AS subject,
         v.relation AS relation, v.value AS value
  LIMIT $limit
}
RETURN kind, uid, text, subject, relation, value
