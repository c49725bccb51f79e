// The op log of one key in the order it was applied, a page at a time.
MATCH (o:Operation {kid: $kid})
OPTIONAL MATCH (o)-[:FROM]->(e:Evidence)
RETURN o {.uid, .kind, .at, .pos, .fact, .note, record: e.record_id, text: e.text} AS op
ORDER BY o.pos, o.uid
SKIP $offset
LIMIT $limit
