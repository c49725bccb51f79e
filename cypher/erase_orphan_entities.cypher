// Entities no remaining version names: their names came only from the erased record.
MATCH (en:Entity) WHERE en.uid IN $uids AND NOT EXISTS { (:Version)-[:SUBJECT|OBJECT]->(en) }
DETACH DELETE en
