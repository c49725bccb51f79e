// Wait (up to 10 minutes) until every index is online and populated.
CALL db.awaitIndexes(600)
