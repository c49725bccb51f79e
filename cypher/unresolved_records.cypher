// Records no extractor could turn into facts: always handed to the reader.
MATCH (e:Unresolved {ns: $ns})
RETURN e.pos AS pos, e.text AS text, e.record_id AS record_id, e.speaker AS speaker,
       e.observed_at AS observed_at, e.times AS times,
       // what it mentions (write_mentions): evidence walks these between turns
       [(e)-[:MENTIONS]->(m:Mention) | m.key] AS mentions
