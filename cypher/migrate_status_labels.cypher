// One-off migration: give versions written before status labels existed the label of
// their status, a batch at a time. Returns how many were labelled (0 when done).
MATCH (v:Version)
WHERE NOT (v:Current OR v:Superseded OR v:Contradicted OR v:Contested OR v:Revoked)
  AND v.status IN ['active', 'superseded', 'contradicted', 'contested', 'revoked']
WITH v LIMIT $batch
FOREACH (_ IN CASE WHEN v.status = 'active' THEN [1] ELSE [] END | SET v:Current)
FOREACH (_ IN CASE WHEN v.status = 'superseded' THEN [1] ELSE [] END | SET v:Superseded)
FOREACH (_ IN CASE WHEN v.status = 'contradicted' THEN [1] ELSE [] END | SET v:Contradicted)
FOREACH (_ IN CASE WHEN v.status = 'contested' THEN [1] ELSE [] END | SET v:Contested)
FOREACH (_ IN CASE WHEN v.status = 'revoked' THEN [1] ELSE [] END | SET v:Revoked)
RETURN count(v) AS labelled
