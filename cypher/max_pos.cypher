// The highest arrival position stored in the namespace (-1 when empty).
MATCH (e:Evidence {ns: $ns})
RETURN coalesce(max(e.pos), -1) AS pos
