// Compaction, step 2: every relationship, by the element ids of its ends.
MATCH (a)-[r]->(b)
RETURN elementId(a) AS a, elementId(b) AS b, type(r) AS type, properties(r) AS props
