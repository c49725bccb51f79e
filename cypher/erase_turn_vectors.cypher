// Erase: the vector of the turn after an erased record was made from both turns' texts;
// it goes (the keeper embeds that turn again, alone).
MATCH (e:Evidence {uid: $uid})
MATCH (n:Evidence {ns: $ns, pos: e.pos + 1})
USING INDEX SEEK n:Evidence(ns, pos)
WHERE n:Unresolved
REMOVE n.turn_embedding
