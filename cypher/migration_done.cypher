// Has this migration already run on this database?
OPTIONAL MATCH (m:GraphmemMigration {name: $name})
RETURN m IS NOT NULL AS done
