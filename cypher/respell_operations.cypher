// After an erase: operations that stay lose the erased value from their fact.
UNWIND $rows AS r
MATCH (op:Operation {uid: r.uid})
SET op.fact = r.fact
