// Which of these records are already stored, or were erased (an erase tombstone keeps
// only a keyed hash of the id, ref, so an erased record is not silently re-ingested).
UNWIND $rows AS row
OPTIONAL MATCH (e:Evidence {uid: row.uid})
OPTIONAL MATCH (t:Tombstone {record_id: row.ref})
WITH row, e, t
WHERE e IS NOT NULL OR t IS NOT NULL
RETURN row.uid AS uid, CASE WHEN e IS NOT NULL THEN 'stored' ELSE 'erased' END AS state
