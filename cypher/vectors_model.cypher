// Meaning: the model that made the namespace's vectors (null: none yet).
OPTIONAL MATCH (n:Namespace {ns: $ns})
RETURN n.embedding_model AS model
