// Record that a migration ran, so it is not run again.
MERGE (m:GraphmemMigration {name: $name})
ON CREATE SET m.at = $at
