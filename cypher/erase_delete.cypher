// Erase: the record's operations, the versions only it supported, then the record
// itself. A sealed tombstone without content remains.
MATCH (e:Evidence {uid: $uid})
OPTIONAL MATCH (o:Operation)-[:FROM]->(e)
DETACH DELETE o
WITH DISTINCT e
CALL (e) {
  MATCH (v:Version) WHERE v.uid IN $versions
  DETACH DELETE v
}
DETACH DELETE e
CREATE (:Tombstone {uid: $tomb_uid, ns: $ns, at: $at, reason: 'erased', sealed: true,
                    record_id: $uid})
