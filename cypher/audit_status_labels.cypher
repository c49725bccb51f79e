// Versions whose status label (Current, Superseded, Contradicted, Contested, Revoked)
// disagrees with their status property, or that carry more than one. Must return nothing.
MATCH (v:Version {ns: $ns})
USING INDEX SEEK v:Version(ns)
WITH v, [l IN labels(v) WHERE l IN ['Current', 'Superseded', 'Contradicted', 'Contested',
                                    'Revoked']] AS marks
WITH v, marks, CASE v.status WHEN 'active' THEN 'Current' WHEN 'superseded' THEN 'Superseded'
  WHEN 'contradicted' THEN 'Contradicted' WHEN 'contested' THEN 'Contested'
  WHEN 'revoked' THEN 'Revoked' END AS expected
WHERE marks <> [expected]
RETURN v.uid AS version, v.status AS status, marks
