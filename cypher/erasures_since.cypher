// Records erased after a moment (ISO time): each erase leaves a sealed tombstone.
MATCH (t:Tombstone)
WHERE t.sealed = true AND t.at > $since
RETURN count(t) AS erased
