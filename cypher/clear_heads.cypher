// Step one of moving heads: release the one-head-per-key constraint for these versions.
UNWIND $uids AS uid
MATCH (v:Version {uid: uid})
SET v.head_of = null
