// Erase: one sealed tombstone per deleted record, with no content. record_id is a keyed
// hash of the record's id (a caller's id sent again stays erased; nobody reads it back).
UNWIND $refs AS ref
CREATE (:Tombstone {uid: $ns + '/erased/' + ref + '@' + $at, ns: $ns, at: $at,
                    reason: 'erased', sealed: true, record_id: ref})
