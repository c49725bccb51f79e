// A page of a namespace's records before a position, newest first: the whole-history
// fallback reads only as many as its budget can hold (the (ns, pos) index gives the order).
MATCH (e:Evidence {ns: $ns})
USING INDEX e:Evidence(ns, pos)
WHERE e.pos < $before
RETURN e.pos AS pos, e.text AS text, e.record_id AS record_id, e.speaker AS speaker,
       e.observed_at AS observed_at, e.times AS times
ORDER BY e.pos DESC
LIMIT $limit
