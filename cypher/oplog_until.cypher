// Transaction time: the ops of one key applied at or before $at, to replay.
MATCH (o:Operation {kid: $kid})
WHERE $at IS NULL OR o.at <= $at
MATCH (o)-[:FROM]->(e:Evidence)
RETURN o.uid AS uid, o.kind AS kind, o.pos AS pos, o.at AS at, o.fact AS fact, e.uid AS record_uid
ORDER BY o.pos, o.uid
