// One-off migration: earlier versions derived record ids from an unkeyed hash of the
// text, and the tombstone of an erased record kept that id, so guesses of the text could
// be tested against it. Such ids no longer block anything: forget them, a batch at a
// time. Returns how many were cleared (0 when done).
MATCH (t:Tombstone {sealed: true})
WHERE t.record_id =~ '.+/r-[0-9a-f]{24}'
WITH t LIMIT $batch
SET t.record_id = null
RETURN count(t) AS labelled
