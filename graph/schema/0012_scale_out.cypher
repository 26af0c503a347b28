// Scale-out (docs/adr/0012): API keys in the graph, so every API replica sees
// them; per-session ingest locks instead of one lock per project.
// A token names its key id, not its project: keys are unique by id alone.
CREATE CONSTRAINT api_key_id IF NOT EXISTS
FOR (k:ApiKey) REQUIRE k.id IS UNIQUE;
CREATE CONSTRAINT session_lock_project_id IF NOT EXISTS
FOR (l:SessionLock) REQUIRE (l.project, l.id) IS UNIQUE;
