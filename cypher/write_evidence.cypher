// New source records (the caller already skipped known uids).
UNWIND $rows AS r
CREATE (e:Evidence)
SET e = r
// Unresolved records also carry the Unresolved label: readers find a namespace's own
// with the (Unresolved).ns index, whatever other namespaces hold.
FOREACH (_ IN CASE WHEN r.parse = 'unresolved' THEN [1] ELSE [] END | SET e:Unresolved)
// A turn written before an existing one changes what that one is embedded with: its
// vector goes, and the keeper embeds it again.
WITH e, r WHERE r.parse = 'unresolved'
OPTIONAL MATCH (n:Evidence {ns: e.ns, pos: e.pos + 1})
USING INDEX SEEK n:Evidence(ns, pos)
WHERE n:Unresolved AND n.turn_embedding IS NOT NULL
REMOVE n.turn_embedding
