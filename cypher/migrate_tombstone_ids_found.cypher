// Erase tombstones of the namespace that still hold a record's uid in clear.
MATCH (t:Tombstone {ns: $ns})
WHERE t.sealed = true AND t.record_id STARTS WITH $prefix
RETURN t.uid AS uid, t.record_id AS record_uid, t.at AS at
