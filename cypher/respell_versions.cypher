// After an erase: versions take the spelling of the records that still support them.
UNWIND $rows AS r
MATCH (v:Version {uid: r.uid})
SET v.subject = r.subject, v.value = r.value
