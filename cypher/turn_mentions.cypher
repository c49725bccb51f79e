// Resolve, then traverse, over turns: from the raw records that best answer a question
// ($seeds: their positions, best first) through the words they mention to the other
// raw records that mention them. A word more than $max_df records mention says little
// (a Mention's degree is read from the store, not counted); the question's own words
// are left out: its ranking has them already. Each seed yields at most $per_seed rows,
// through its rarest words first.
UNWIND range(0, size($seeds) - 1) AS rank
MATCH (s:Evidence {ns: $ns, pos: $seeds[rank]})
USING INDEX SEEK s:Evidence(ns, pos)
WHERE s:Unresolved
CALL (s) {
  MATCH (s)-[:MENTIONS]->(m:Mention)
  WHERE NOT m.key IN $asked
  WITH m, COUNT { (m)<-[:MENTIONS]-() } AS df
  WHERE 2 <= df <= $max_df
  MATCH (m)<-[:MENTIONS]-(t:Unresolved)
  WHERE t <> s
  RETURN t.pos AS pos, df
  ORDER BY df
  LIMIT $per_seed
}
RETURN rank, pos, df
