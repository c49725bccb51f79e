// Which of these record uids are already stored, or were erased (their sealed tombstone
// keeps only the uid, so an erased record is not silently re-ingested).
UNWIND $uids AS uid
OPTIONAL MATCH (e:Evidence {uid: uid})
OPTIONAL MATCH (t:Tombstone {record_id: uid})
WITH uid, e, t
WHERE e IS NOT NULL OR t IS NOT NULL
RETURN uid, CASE WHEN e IS NOT NULL THEN 'stored' ELSE 'erased' END AS state
