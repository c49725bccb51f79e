// graphmem schema: the constraints and indexes graphmem/store/neo4j/schema.py declares
// with neomodel (and the indexes of cypher/fulltext_index.cypher and
// cypher/tenant_indexes.cypher), written out
// for auditors. Safe to run twice (IF NOT EXISTS).
// Version.head_of holds the key id on the head only, so its uniqueness constraint
// makes 'at most one head per key' a rule Neo4j itself enforces.

CREATE CONSTRAINT constraint_unique_Evidence_uid IF NOT EXISTS FOR (n:Evidence) REQUIRE n.uid IS UNIQUE;
CREATE INDEX index_Evidence_ns IF NOT EXISTS FOR (n:Evidence) ON (n.ns);
CREATE INDEX index_Evidence_pos IF NOT EXISTS FOR (n:Evidence) ON (n.pos);
CREATE INDEX evidence_ns_pos IF NOT EXISTS FOR (n:Evidence) ON (n.ns, n.pos);
CREATE INDEX index_Evidence_parse IF NOT EXISTS FOR (n:Evidence) ON (n.parse);
CREATE INDEX index_Unresolved_ns IF NOT EXISTS FOR (n:Unresolved) ON (n.ns);
CREATE FULLTEXT INDEX evidence_text_terms_ns IF NOT EXISTS FOR (n:Evidence) ON EACH [n.text, n.terms, n.ns]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk', `fulltext.eventually_consistent`: false}};
CREATE CONSTRAINT constraint_unique_Entity_uid IF NOT EXISTS FOR (n:Entity) REQUIRE n.uid IS UNIQUE;
CREATE INDEX index_Entity_ns IF NOT EXISTS FOR (n:Entity) ON (n.ns);
CREATE INDEX index_Entity_key IF NOT EXISTS FOR (n:Entity) ON (n.key);
CREATE CONSTRAINT constraint_unique_Version_uid IF NOT EXISTS FOR (n:Version) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT constraint_unique_Version_head_of IF NOT EXISTS FOR (n:Version) REQUIRE n.head_of IS UNIQUE;
CREATE INDEX index_Version_ns IF NOT EXISTS FOR (n:Version) ON (n.ns);
CREATE INDEX index_Version_kid IF NOT EXISTS FOR (n:Version) ON (n.kid);
CREATE INDEX index_Version_status IF NOT EXISTS FOR (n:Version) ON (n.status);
CREATE CONSTRAINT constraint_unique_Operation_uid IF NOT EXISTS FOR (n:Operation) REQUIRE n.uid IS UNIQUE;
CREATE INDEX index_Operation_ns IF NOT EXISTS FOR (n:Operation) ON (n.ns);
CREATE INDEX index_Operation_kid IF NOT EXISTS FOR (n:Operation) ON (n.kid);
CREATE CONSTRAINT constraint_unique_Tombstone_uid IF NOT EXISTS FOR (n:Tombstone) REQUIRE n.uid IS UNIQUE;
CREATE INDEX index_Tombstone_ns IF NOT EXISTS FOR (n:Tombstone) ON (n.ns);
CREATE INDEX index_Tombstone_record_id IF NOT EXISTS FOR (n:Tombstone) ON (n.record_id);
CREATE CONSTRAINT constraint_unique_Namespace_ns IF NOT EXISTS FOR (n:Namespace) REQUIRE n.ns IS UNIQUE;
