// Versions an erased record supported that other records keep: their spelling and the
// facts of the operations still applied to them, oldest first (to respell from).
MATCH (v:Version) WHERE v.uid IN $uids
CALL (v) {
  OPTIONAL MATCH (op:Operation)-[:APPLIED_TO]->(v)
  WITH op ORDER BY op.pos, op.uid
  RETURN [f IN collect(op.fact) WHERE f IS NOT NULL] AS facts
}
RETURN v.uid AS uid, v.subject AS subject, v.value AS value, facts
