// New versions, linked to their subject and object entities.
UNWIND $rows AS r
CREATE (v:Version)
SET v = r.props
WITH v, r
MATCH (s:Entity {uid: r.subject_uid})
MATCH (o:Entity {uid: r.object_uid})
CREATE (v)-[:SUBJECT]->(s), (v)-[:OBJECT]->(o)
