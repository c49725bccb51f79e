// The whole history of a namespace in source order (fallback and raw_history).
MATCH (e:Evidence {ns: $ns})
USING INDEX SEEK e:Evidence(ns)
RETURN e.pos AS pos, e.text AS text, e.record_id AS record_id, e.speaker AS speaker,
       e.observed_at AS observed_at, e.times AS times
ORDER BY e.pos
