// What new raw records mention (mention_keys): one Mention node per namespace and word,
// uid "{ns}/{word}" (a sealed namespace's words are keyed hashes). Evidence walks from
// the turns that answer a question to the others that mention the same things.
UNWIND $rows AS r
MATCH (e:Evidence {uid: r.uid})
UNWIND r.keys AS key
MERGE (m:Mention {uid: $ns + '/' + key})
  ON CREATE SET m.ns = $ns, m.key = key
CREATE (e)-[:MENTIONS]->(m)
