// Entities named by versions about to be erased (candidates for removal).
MATCH (v:Version)-[:SUBJECT|OBJECT]->(en:Entity)
WHERE v.uid IN $uids
RETURN collect(DISTINCT en.uid) AS uids
