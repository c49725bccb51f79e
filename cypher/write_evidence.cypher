// New source records (the caller already skipped known uids).
UNWIND $rows AS r
CREATE (e:Evidence)
SET e = r
