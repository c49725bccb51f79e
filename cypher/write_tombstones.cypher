UNWIND $rows AS r
CREATE (t:Tombstone)
SET t = r.props
WITH t, r
MATCH (v:Version {uid: r.version})
CREATE (t)-[:REVOKES]->(v)
