// New versions, linked to their subject and object entities and to the record that
// introduced them.
UNWIND $rows AS r
MATCH (s:Entity {uid: r.subject_uid})
MATCH (o:Entity {uid: r.object_uid})
MATCH (e:Evidence {uid: r.evidence})
CREATE (v:Version)
SET v = r.props
CREATE (v)-[:SUBJECT]->(s), (v)-[:OBJECT]->(o), (v)-[:SUPPORTED_BY]->(e)
