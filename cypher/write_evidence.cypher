// New source records (the caller already skipped known uids).
UNWIND $rows AS r
CREATE (e:Evidence)
SET e = r
// Unresolved records also carry the Unresolved label: readers find a namespace's own
// with the (Unresolved).ns index, whatever other namespaces hold.
FOREACH (_ IN CASE WHEN r.parse = 'unresolved' THEN [1] ELSE [] END | SET e:Unresolved)
