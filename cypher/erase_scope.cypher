// What erasing one record touches: the versions it supports, and whether it is their
// only evidence (then the version goes too).
MATCH (e:Evidence {uid: $uid})
RETURN e.uid AS uid,
       [(v:Version)-[:SUPPORTED_BY]->(e) |
        {uid: v.uid, key: v.key, only: COUNT { (v)-[:SUPPORTED_BY]->(:Evidence) } = 1}] AS versions
