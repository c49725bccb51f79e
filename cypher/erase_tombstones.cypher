// Erase: one sealed tombstone per deleted record, with no content. record_id is a keyed
// hash of the record's id (a caller's id sent again stays erased; nobody reads it back).
UNWIND $rows AS r
CREATE (:Tombstone {uid: r.uid, ns: $ns, at: $at, reason: 'erased', sealed: true,
                    record_id: r.ref})
