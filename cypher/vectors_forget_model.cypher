// Meaning: the namespace records no embedding model any more (its vectors were cleared).
MATCH (n:Namespace {ns: $ns})
REMOVE n.embedding_model
RETURN n.ns AS ns
