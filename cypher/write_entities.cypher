// Normalized names; a name seen again gains the new surface form as an alias.
UNWIND $rows AS r
MERGE (e:Entity {uid: r.uid})
  ON CREATE SET e.ns = r.ns, e.key = r.key, e.name = r.name, e.aliases = []
WITH e, r
WHERE r.name <> e.name AND NOT r.name IN e.aliases
SET e.aliases = e.aliases + r.name
