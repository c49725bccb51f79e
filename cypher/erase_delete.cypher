// Erase: the record's operations, the versions only it supported, then the record
// itself and the words only it mentioned. Returns the deleted records' texts and the
// uids of the records deleted (each gets a sealed tombstone without content, keyed by a
// hash of its id: erase_tombstones).
// What only took back or settled the erased versions goes with them: the operations
// applied to nothing else (their fact names the values), the tombstones that revoked
// them, and the records that carried nothing else (a revoke's text names what it took
// back; each gets a sealed tombstone too). An operation that also touched a surviving
// version stays: it is that version's history.
MATCH (e:Evidence {uid: $uid})
OPTIONAL MATCH (o:Operation)-[:FROM]->(e)
DETACH DELETE o
WITH DISTINCT e
CALL (e) {
  MATCH (op:Operation)-[:APPLIED_TO]->(v:Version)
  WHERE v.uid IN $versions
  WITH DISTINCT op
  WHERE all(x IN [(op)-[:APPLIED_TO]->(w:Version) | w.uid] WHERE x IN $versions)
  OPTIONAL MATCH (op)-[:FROM]->(src:Evidence)
  DETACH DELETE op
  WITH src
  WHERE src IS NOT NULL AND src <> e
    AND NOT EXISTS { (:Operation)-[:FROM]->(src) }
    AND NOT EXISTS { (:Version)-[:SUPPORTED_BY]->(src) }
  WITH DISTINCT src
  WITH src, src.text AS text, src.uid AS uid, [(src)-[:MENTIONS]->(m:Mention) | m] AS said
  DETACH DELETE src
  RETURN collect(text) AS taken_along, collect(uid) AS taken_uids, collect(said) AS taken_said
}
CALL (e) {
  MATCH (t:Tombstone)-[:REVOKES]->(v:Version)
  WHERE v.uid IN $versions
    AND all(x IN [(t)-[:REVOKES]->(w:Version) | w.uid] WHERE x IN $versions)
  WITH DISTINCT t
  DETACH DELETE t
}
CALL (e) {
  MATCH (v:Version) WHERE v.uid IN $versions
  DETACH DELETE v
}
WITH e, e.text AS text, taken_along, taken_uids, taken_said,
     [(e)-[:MENTIONS]->(m:Mention) | m] AS said
DETACH DELETE e
// A word a deleted record mentioned goes too unless a remaining record mentions it (a
// Mention's key is a word of the text: erase means erase).
WITH text, taken_along, taken_uids, said, taken_said
CALL (said, taken_said) {
  UNWIND reduce(acc = said, s IN taken_said | acc + s) AS m
  WITH DISTINCT m
  WHERE NOT EXISTS { (m)<-[:MENTIONS]-() }
  DELETE m
}
// The texts deleted (a sealed text's key is destroyed once this commits).
RETURN [text] + taken_along AS texts, [$uid] + taken_uids AS uids
