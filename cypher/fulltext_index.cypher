// The full-text index of record text, with the namespace as a second field: fresh block
// reads query `ns:"<namespace>" AND (text:... OR ...)`, so another namespace's records
// never take the top hits (a text-only index returned the global top and filtered after).
// A third field, `terms`, holds the keyed hashes of a sealed record's words (its text is
// ciphertext): sealed records are found by hashing the query's words the same way.
// CJK analyzer: Hangul, Han and kana as bigrams, other scripts as words.
DROP INDEX fulltext_index_Evidence_text IF EXISTS;
DROP INDEX evidence_text_ns IF EXISTS;
CREATE FULLTEXT INDEX evidence_text_terms_ns IF NOT EXISTS
  FOR (n:Evidence) ON EACH [n.text, n.terms, n.ns]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk', `fulltext.eventually_consistent`: false}};
CALL db.awaitIndex('evidence_text_terms_ns', 600);
