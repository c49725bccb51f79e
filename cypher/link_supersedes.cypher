UNWIND $pairs AS p
MATCH (a:Version {uid: p[0]})
MATCH (b:Version {uid: p[1]})
MERGE (a)-[:SUPERSEDES]->(b)
