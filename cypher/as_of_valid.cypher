// Valid time: the value that held at $at, by the records' own stated times.
MATCH (v:Version {kid: $kid})
WHERE v.status IN ['active', 'superseded', 'contested']
  AND coalesce(v.valid_from, '') <= $at
  AND (v.valid_to IS NULL OR v.valid_to > $at)
RETURN v {.uid, .value, .status, .valid_from, .valid_to, .pos} AS version
ORDER BY v.valid_from DESC, coalesce(v.said_pos, v.pos) DESC
LIMIT 1
