UNWIND $pairs AS p
MATCH (v:Version {uid: p[0]})
MATCH (e:Evidence {uid: p[1]})
MERGE (v)-[:SUPPORTED_BY]->(e)
