// Step two: the versions' new status (and its label), head marker, validity and
// where it was last said (a head said again later stands as of that record).
UNWIND $rows AS r
MATCH (v:Version {uid: r.uid})
SET v.status = r.status, v.head_of = r.head_of, v.valid_to = r.valid_to, v.tx_to = r.tx_to,
    v.pos = r.pos, v.said_pos = r.said_pos
REMOVE v:Current:Superseded:Contradicted:Contested:Revoked
FOREACH (_ IN CASE WHEN r.status = 'active' THEN [1] ELSE [] END | SET v:Current)
FOREACH (_ IN CASE WHEN r.status = 'superseded' THEN [1] ELSE [] END | SET v:Superseded)
FOREACH (_ IN CASE WHEN r.status = 'contradicted' THEN [1] ELSE [] END | SET v:Contradicted)
FOREACH (_ IN CASE WHEN r.status = 'contested' THEN [1] ELSE [] END | SET v:Contested)
FOREACH (_ IN CASE WHEN r.status = 'revoked' THEN [1] ELSE [] END | SET v:Revoked)
