// Whether any entity of the namespace is named in Hangul: then Latin-script questions are
// also linked to those names by sound ("Victoria Beckham" to 빅토리아 베컴).
RETURN EXISTS {
  MATCH (e:Entity {ns: $ns})
  USING INDEX SEEK e:Entity(ns)
  WHERE e.name =~ '.*[가-힣].*'
} AS any
