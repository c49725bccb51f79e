// The op log: each applied write, from which record, applied to which versions.
UNWIND $rows AS r
CREATE (o:Operation)
SET o = r.props
WITH o, r
MATCH (e:Evidence {uid: r.evidence})
CREATE (o)-[:FROM]->(e)
WITH o, r
UNWIND r.applied_to AS vu
MATCH (v:Version {uid: vu})
CREATE (o)-[:APPLIED_TO]->(v)
