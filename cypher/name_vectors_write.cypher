// Meaning for cross-script links: persist name vectors (32-bit floats) on their entities.
// An entity erased meanwhile is simply not found. No namespace lock: no value changes.
UNWIND $rows AS r
MATCH (e:Entity {uid: r.uid})
WHERE e.ns = $ns AND e.name = r.name  // renamed meanwhile (an erase): not this vector
CALL db.create.setNodeVectorProperty(e, 'embedding', r.vector)
RETURN count(e) AS written
