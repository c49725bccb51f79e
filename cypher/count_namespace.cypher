// Nodes and relationships of one namespace, by label and type.
MATCH (n {ns: $ns})
WITH n, labels(n)[0] AS label
OPTIONAL MATCH (n)-[r]->()
RETURN label, count(DISTINCT n) AS nodes, count(r) AS relationships
ORDER BY label
