// Uniqueness of (project, id) for every node label provgraph writes.
// MERGE relies on these: without a constraint it is a label scan and two
// concurrent MERGEs can create the same node twice.
CREATE CONSTRAINT node_project_id IF NOT EXISTS
FOR (n:Node) REQUIRE (n.project, n.id) IS UNIQUE;
CREATE CONSTRAINT delivery_project_id IF NOT EXISTS
FOR (d:Delivery) REQUIRE (d.project, d.id) IS UNIQUE;
CREATE CONSTRAINT citation_key_project_id IF NOT EXISTS
FOR (k:CitationKey) REQUIRE (k.project, k.id) IS UNIQUE;
CREATE CONSTRAINT report_project_id IF NOT EXISTS
FOR (r:Report) REQUIRE (r.project, r.id) IS UNIQUE;
// One version number per output: two concurrent saves of new configs cannot share it.
CREATE CONSTRAINT report_project_output_version IF NOT EXISTS
FOR (r:Report) REQUIRE (r.project, r.output_id, r.version) IS UNIQUE;
CREATE CONSTRAINT job_project_id IF NOT EXISTS
FOR (j:Job) REQUIRE (j.project, j.id) IS UNIQUE;
CREATE CONSTRAINT ingest_lock_project_id IF NOT EXISTS
FOR (l:IngestLock) REQUIRE (l.project, l.id) IS UNIQUE;
CREATE CONSTRAINT schema_migration_project_id IF NOT EXISTS
FOR (m:SchemaMigration) REQUIRE (m.project, m.id) IS UNIQUE;
