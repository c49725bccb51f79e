// Composite indexes with the namespace first: a namespace's newest record is read from the
// end of its own (ns, pos) range, whatever other namespaces hold.
CREATE INDEX evidence_ns_pos IF NOT EXISTS FOR (n:Evidence) ON (n.ns, n.pos);
CALL db.awaitIndex('evidence_ns_pos', 600);
