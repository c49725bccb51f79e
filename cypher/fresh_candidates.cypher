// Fresh block retrieval: Lucene full-text candidates for the request, read now (not
// from the snapshot), restricted to the namespace's active view. $q is
// ns:"<namespace>" AND (text:"term" OR terms:"t<hash>" OR ...), built by the store from
// the namespace name, word characters and hex digests only, never raw user text; the namespace field keeps other
// tenants' records out of the top hits, and the WHERE drops look-alike names.
CALL db.index.fulltext.queryNodes('evidence_text_terms_ns', $q, {limit: $limit})
YIELD node AS e, score
WHERE e.ns = $ns
WITH e, score, [(v)-[:SUPPORTED_BY]->(e) | v] AS vs
WITH e, score, vs, [v IN vs WHERE v.head_of IS NOT NULL] AS heads
WHERE size(vs) = 0 OR size(heads) > 0
RETURN e.pos AS pos, e.record_id AS record_id, e.text AS text, e.observed_at AS observed_at,
       coalesce(e.participants, []) AS participants, e.speaker AS speaker,
       [v IN heads | [v.subject, v.relation, v.value]] AS facts, size(vs) > 0 AS keyed
