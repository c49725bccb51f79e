// Meaning for cross-script links: every entity name with its vector, read once into a
// process.
MATCH (e:Entity {ns: $ns})
USING INDEX SEEK e:Entity(ns)
WHERE e.embedding IS NOT NULL
RETURN e.name AS name, e.embedding AS vector
