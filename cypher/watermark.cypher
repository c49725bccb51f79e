// Changes when anything in the namespace changes: records, operations, erasures.
RETURN COUNT { (e:Evidence {ns: $ns}) } AS records,
       COUNT { (o:Operation {ns: $ns}) } AS operations,
       COUNT { (t:Tombstone {ns: $ns}) } AS tombstones
