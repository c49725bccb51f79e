// Read path A (CMC): anchor, then close over the current graph, in one round trip.
// $spans: candidate names from the question, {uid, start, end} with token offsets.
// Anchors are the entities that exist, are the subject of some version, and are not
// inside a longer match ("New York Times" beats "New York"). From them, every current
// edge of every subject at shortest depth < $hops is selected (objects become subjects).
// Of the namespace's unresolved records only whether there are any, and the count of
// their changes: the caller ranks them from its own index, reloaded when that count moves
// (a store of a million records has half a million; listing them took a second).
// Relationship ends carry no label where the type implies it (SUBJECT and SUPPORTED_BY
// leave versions only): a label lets the planner scan it instead of expanding.
// replan=skip: the plan starts from the anchors whatever the statistics, so a big ingest
// elsewhere must not make the next question wait ~200 ms for the same plan again.
CYPHER replan=skip
UNWIND $spans AS c
MATCH (a:Entity {uid: c.uid})
WHERE EXISTS { (a)<-[:SUBJECT]-() }
WITH collect({node: a, name: a.name, start: c.start, end: c.end}) AS found
WITH [f IN found WHERE NONE(o IN found WHERE o.start <= f.start AND f.end <= o.end
                                         AND o.end - o.start > f.end - f.start)] AS anchors
CALL (anchors) {
  UNWIND anchors AS an
  WITH an.node AS a
  // The search starts from the bound anchor (a subquery argument, and no label on the far
  // end): on a small, fresh database the planner otherwise scanned every entity and
  // searched paths between all pairs.
  CALL (a) {
    MATCH p = ANY SHORTEST (a)(()<-[:SUBJECT]-(hop:Version WHERE hop.head_of IS NOT NULL)-[:OBJECT]->()){0,9}(s)
    WHERE size(hop) < $hops
    RETURN s, size(hop) AS hops
  }
  WITH s, min(hops) AS depth
  // Each reached subject's heads, read from the subject. No label on v (only versions
  // have SUBJECT edges): with index statistics sampled while the database was empty, the
  // planner otherwise scanned the head_of index (every head of every namespace) once per
  // subject.
  MATCH (s)<-[:SUBJECT]-(v)
  WHERE v.head_of IS NOT NULL
  RETURN collect({
    uid: v.uid, key: v.key, subject: v.subject, relation: v.relation, value: v.value,
    depth: depth,
    evidence: [(v)-[:SUPPORTED_BY]->(e) |
               e {.pos, .text, .record_id, .speaker, .observed_at, .times}]
  }) AS edges
}
CALL () {
  OPTIONAL MATCH (n:Namespace {ns: $ns})
  RETURN coalesce(n.raw_writes, 0) AS raw_writes
}
RETURN [x IN anchors | x.name] AS anchors, edges, raw_writes,
       EXISTS { (e:Unresolved {ns: $ns}) } AS has_unresolved
