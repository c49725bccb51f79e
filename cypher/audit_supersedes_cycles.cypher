// Versions that supersede themselves through a chain. Must return nothing.
MATCH (v:Version {ns: $ns})
WHERE EXISTS { (v)-[:SUPERSEDES]->+(v) }
RETURN v.uid AS uid
