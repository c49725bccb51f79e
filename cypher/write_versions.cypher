// New versions, linked to their subject and object entities and to the record that
// introduced them. A second label names the status (Current, Superseded, Contradicted,
// Contested, Revoked) so Neo4j Browser can colour versions by it and auditors can match it.
UNWIND $rows AS r
MATCH (s:Entity {uid: r.subject_uid})
MATCH (o:Entity {uid: r.object_uid})
MATCH (e:Evidence {uid: r.evidence})
CREATE (v:Version)
SET v = r.props
CREATE (v)-[:SUBJECT]->(s), (v)-[:OBJECT]->(o), (v)-[:SUPPORTED_BY]->(e)
FOREACH (_ IN CASE WHEN r.props.status = 'active' THEN [1] ELSE [] END | SET v:Current)
FOREACH (_ IN CASE WHEN r.props.status = 'superseded' THEN [1] ELSE [] END | SET v:Superseded)
FOREACH (_ IN CASE WHEN r.props.status = 'contradicted' THEN [1] ELSE [] END | SET v:Contradicted)
FOREACH (_ IN CASE WHEN r.props.status = 'contested' THEN [1] ELSE [] END | SET v:Contested)
FOREACH (_ IN CASE WHEN r.props.status = 'revoked' THEN [1] ELSE [] END | SET v:Revoked)
