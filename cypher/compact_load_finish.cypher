// Compaction: the temporary label and numbers go (auto-commit: batched transactions).
MATCH (n:GraphmemCompacting)
CALL (n) {
  REMOVE n:GraphmemCompacting, n.compact_id
} IN TRANSACTIONS OF 10000 ROWS
