// Meaning for cross-script links: Latin-script entity names that hold no vector yet. Embedded only
// once a namespace is asked in Hangul (a Latin-only namespace pays nothing).
MATCH (e:Entity {ns: $ns})
USING INDEX SEEK e:Entity(ns)
WHERE e.embedding IS NULL AND NOT e.name =~ '.*[가-힣].*'  // Latin names are linked to
RETURN e.uid AS uid, e.name AS name
LIMIT $limit
