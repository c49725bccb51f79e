// One-off per namespace: erase tombstones written by earlier versions kept the record's
// uid in clear. The caller hashes each (erased_ref) and rewrites it here.
UNWIND $rows AS r
MATCH (t:Tombstone {uid: r.old})
SET t.uid = r.uid, t.record_id = r.ref
