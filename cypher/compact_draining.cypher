// Compaction: transactions begun before the fence went up (they may still write).
SHOW TRANSACTIONS YIELD transactionId, startTime
WHERE datetime(startTime) < datetime($since)
RETURN count(transactionId) AS running
