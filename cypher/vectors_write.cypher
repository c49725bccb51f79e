// Meaning: persist vectors (32-bit floats) on their records and values. A node erased
// meanwhile is simply not found. No namespace lock: a vector changes no value.
UNWIND $rows AS r
CALL (r) {
  OPTIONAL MATCH (e:Evidence {uid: r.uid})
  WITH e WHERE r.kind = 'record' AND e IS NOT NULL AND e.ns = $ns
  CALL db.create.setNodeVectorProperty(e, 'embedding', r.vector)
  RETURN count(*) AS records
}
CALL (r) {
  OPTIONAL MATCH (e:Evidence {uid: r.uid})
  WITH e WHERE r.kind = 'turn' AND e IS NOT NULL AND e.ns = $ns
  // A turn's vector embeds the turn before it: lock the turn first (an erase of the one
  // before removes this vector under the same lock), then write only if the turn before
  // is still the one embedded (erased or inserted meanwhile: embedded again later).
  SET e.turn_lock = true
  REMOVE e.turn_lock
  WITH e
  OPTIONAL MATCH (p:Evidence {ns: $ns, pos: e.pos - 1})
  USING INDEX SEEK p:Evidence(ns, pos)
  WHERE p:Unresolved
  WITH e WHERE coalesce(p.uid, '') = r.prev
  CALL db.create.setNodeVectorProperty(e, 'turn_embedding', r.vector)
  RETURN count(*) AS turns
}
CALL (r) {
  OPTIONAL MATCH (v:Version {uid: r.uid})
  WITH v WHERE r.kind = 'fact' AND v IS NOT NULL AND v.ns = $ns
  CALL db.create.setNodeVectorProperty(v, 'embedding', r.vector)
  RETURN count(*) AS facts
}
RETURN sum(records) + sum(turns) + sum(facts) AS written
