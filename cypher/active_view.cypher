// The active view: records that support a current value, or no value at all (fillers,
// unkeyed stores). A record whose values were all superseded never serves a block.
MATCH (e:Evidence {ns: $ns})
USING INDEX SEEK e:Evidence(ns)
WITH e, [(v)-[:SUPPORTED_BY]->(e) | v] AS vs
WITH e, vs, [v IN vs WHERE v.head_of IS NOT NULL] AS heads
WHERE size(vs) = 0 OR size(heads) > 0
RETURN e.pos AS pos, e.record_id AS record_id, e.text AS text, e.observed_at AS observed_at,
       coalesce(e.participants, []) AS participants, e.speaker AS speaker,
       [v IN heads | [v.subject, v.relation, v.value]] AS facts, size(vs) > 0 AS keyed
ORDER BY e.pos
