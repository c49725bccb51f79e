// Anchoring alone: the entities named in the question (maximal matches, subjects only).
UNWIND $spans AS c
MATCH (a:Entity {uid: c.uid})
WHERE EXISTS { (a)<-[:SUBJECT]-() }
WITH collect({key: a.key, name: a.name, start: c.start, end: c.end}) AS found
UNWIND [f IN found WHERE NONE(o IN found WHERE o.start <= f.start AND f.end <= o.end
                                          AND o.end - o.start > f.end - f.start)] AS m
RETURN DISTINCT m.key AS key, m.name AS name
