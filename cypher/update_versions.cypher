// Step two: the versions' new status, head marker and validity.
UNWIND $rows AS r
MATCH (v:Version {uid: r.uid})
SET v.status = r.status, v.head_of = r.head_of, v.valid_to = r.valid_to, v.tx_to = r.tx_to
