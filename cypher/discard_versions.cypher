// Ablation only (preserve_history=False): CRUD overwrite forgets displaced values.
UNWIND $uids AS uid
MATCH (v:Version {uid: uid})
DETACH DELETE v
