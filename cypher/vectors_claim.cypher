// Meaning: record the namespace's embedding model where none is recorded; returns the
// model recorded (another one means the namespace's vectors come from another model).
MERGE (n:Namespace {ns: $ns})
ON CREATE SET n.writes = 0
SET n.embedding_model = coalesce(n.embedding_model, $model)
RETURN n.embedding_model AS model
