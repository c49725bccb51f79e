// Versions an erased record supported that other records keep: their spelling and the
// facts of the operations whose record still supports them, oldest first (to respell
// from). Operations that only contested or superseded a version are not its spellings.
MATCH (v:Version) WHERE v.uid IN $uids
CALL (v) {
  OPTIONAL MATCH (op:Operation)-[:APPLIED_TO]->(v)
  WHERE EXISTS { (op)-[:FROM]->(:Evidence)<-[:SUPPORTED_BY]-(v) }
  WITH op ORDER BY op.pos, op.uid
  RETURN [f IN collect(op.fact) WHERE f IS NOT NULL] AS facts
}
RETURN v.uid AS uid, v.subject AS subject, v.value AS value, facts
