// The audit trail: chain entries (id = seq), the chain head, reviews.
CREATE CONSTRAINT audit_entry_project_id IF NOT EXISTS
FOR (e:AuditEntry) REQUIRE (e.project, e.id) IS UNIQUE;
CREATE CONSTRAINT audit_head_project_id IF NOT EXISTS
FOR (h:AuditHead) REQUIRE (h.project, h.id) IS UNIQUE;
CREATE CONSTRAINT review_project_id IF NOT EXISTS
FOR (r:Review) REQUIRE (r.project, r.id) IS UNIQUE;
CREATE INDEX review_project_output IF NOT EXISTS
FOR (r:Review) ON (r.project, r.output_id);
