// Meaning: every vector the namespace holds, with the text it was made from (a record's
// text, or a current value's subject, relation and value), read once into a process.
CALL (*) {
  MATCH (e:Evidence {ns: $ns})
  USING INDEX SEEK e:Evidence(ns)
  WHERE e.embedding IS NOT NULL
  RETURN 'record' AS kind, e.text AS text, null AS subject, null AS relation, null AS value,
         e.embedding AS vector
  UNION ALL
  MATCH (v:Version {ns: $ns})
  USING INDEX SEEK v:Version(ns)
  WHERE v.head_of IS NOT NULL AND v.embedding IS NOT NULL
  RETURN 'fact' AS kind, null AS text, v.subject AS subject, v.relation AS relation,
         v.value AS value, v.embedding AS vector
}
RETURN kind, text, subject, relation, value, vector
