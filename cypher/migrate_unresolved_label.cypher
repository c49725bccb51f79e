// One-off migration: label the unresolved records written before the Unresolved label
// existed, a batch at a time. Returns how many were labelled (0 when done).
MATCH (e:Evidence {parse: 'unresolved'})
WHERE NOT e:Unresolved
WITH e LIMIT $batch
SET e:Unresolved
RETURN count(e) AS labelled
