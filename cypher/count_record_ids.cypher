// Records stored in a namespace, and how many distinct ids they carry (must be equal).
MATCH (e:Evidence {ns: $ns})
USING INDEX SEEK e:Evidence(ns)
RETURN count(e) AS total, count(DISTINCT e.record_id) AS distinct,
       count(DISTINCT e.pos) AS positions
