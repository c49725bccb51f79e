// Erase: a word the erased record mentioned goes with it unless another record mentions
// it too (a Mention's key is a word of the text: erase means erase).
MATCH (e:Evidence {uid: $uid})-[r:MENTIONS]->(m:Mention)
DELETE r
WITH DISTINCT m
WHERE NOT EXISTS { (m)<-[:MENTIONS]-() }
DELETE m
