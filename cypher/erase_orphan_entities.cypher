// After an erase, the entities the erased versions named: those no remaining version
// names go (their names came only from the erased record); the others keep only the
// spellings remaining versions use, so no erased spelling survives as a name or alias.
MATCH (en:Entity) WHERE en.uid IN $uids
CALL (en) {
  OPTIONAL MATCH (v:Version)-[r:SUBJECT|OBJECT]->(en)
  WITH v, r ORDER BY v.tx_from, v.uid
  RETURN [x IN collect(CASE type(r) WHEN 'SUBJECT' THEN v.subject ELSE v.value END)
          WHERE x IS NOT NULL] AS spellings
}
WITH en, spellings
CALL (en, spellings) {
  WITH en, spellings WHERE size(spellings) = 0
  DETACH DELETE en
}
CALL (en, spellings) {
  WITH en, spellings WHERE size(spellings) > 0
  WITH en, spellings,
       CASE WHEN en.name IN spellings THEN en.name ELSE spellings[0] END AS name
  // a name vector belongs to the erased spelling when the name changes
  FOREACH (_ IN CASE WHEN name <> en.name THEN [1] ELSE [] END | REMOVE en.embedding)
  SET en.name = name,
      en.aliases = reduce(acc = [], s IN spellings |
                          CASE WHEN s = name OR s IN acc THEN acc ELSE acc + s END)
}
