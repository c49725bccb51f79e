// SUPERSEDES edges that point forward in time: by stated time when both have one, else
// the replaced value was first said after the replacing one was last said (a value said
// again later, or revoked back to, keeps `pos` where it was first said and `said_pos`
// where it was last said). Must return nothing.
MATCH (a:Version {ns: $ns})-[:SUPERSEDES]->(b:Version)
USING INDEX SEEK a:Version(ns)
WHERE CASE WHEN a.stated_at IS NOT NULL AND b.stated_at IS NOT NULL
                AND a.stated_at <> b.stated_at
           THEN b.stated_at > a.stated_at
           ELSE b.pos > coalesce(a.said_pos, a.pos) END
RETURN a.uid AS newer, b.uid AS older
