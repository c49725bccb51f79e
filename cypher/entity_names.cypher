// Every entity name of a namespace: the cross-script linker indexes the Latin ones by
// sound, so that a Hangul rendering ("빅토리아 베컴") anchors on the entity.
MATCH (e:Entity {ns: $ns})
USING INDEX SEEK e:Entity(ns)
RETURN e.name AS name
