// The highest arrival position stored in the namespace (no row when it is empty): read
// from the end of the (ns, pos) index, so it costs the same at ten records or a million.
MATCH (e:Evidence {ns: $ns})
USING INDEX SEEK e:Evidence(ns, pos)
WHERE e.pos IS NOT NULL
RETURN e.pos AS pos
ORDER BY e.pos DESC
LIMIT 1
