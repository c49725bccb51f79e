// Compaction fence: while it holds (a lease the compaction renews), every graphmem write
// transaction refuses to start (see lock_namespace). A fence another live compaction
// holds is left alone (taken), unless $force (its holder is known dead). Returns the
// moment the fence went up.
MERGE (f:GraphmemFence {name: 'compaction'})
WITH f, NOT $force AND coalesce(f.until > timestamp() AND f.holder <> $holder, false) AS taken
FOREACH (_ IN CASE WHEN taken THEN [] ELSE [1] END |
  SET f.until = timestamp() + $lease_ms,
      f.holder = $holder,
      f.since = CASE
        WHEN $renew THEN coalesce(f.since, toString(datetime.realtime()))
        ELSE toString(datetime.realtime())
      END
)
RETURN taken, f.holder AS holder, f.since AS since
