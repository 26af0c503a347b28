// Indexes for what the queries filter on; every one leads with project (the tenant).
CREATE INDEX node_project_session IF NOT EXISTS
FOR (n:Node) ON (n.project, n.session_id);
CREATE INDEX node_project_run IF NOT EXISTS
FOR (n:Node) ON (n.project, n.run_id);
CREATE INDEX node_project_type IF NOT EXISTS
FOR (n:Node) ON (n.project, n.type);
CREATE INDEX node_project_timestamp IF NOT EXISTS
FOR (n:Node) ON (n.project, n.timestamp);
CREATE INDEX node_project_citation_key IF NOT EXISTS
FOR (n:Node) ON (n.project, n.citation_key);
CREATE INDEX citation_key_project_session IF NOT EXISTS
FOR (k:CitationKey) ON (k.project, k.session_id);
CREATE INDEX citation_key_project_key IF NOT EXISTS
FOR (k:CitationKey) ON (k.project, k.key);
CREATE INDEX report_project_output IF NOT EXISTS
FOR (r:Report) ON (r.project, r.output_id);
CREATE INDEX report_project_created IF NOT EXISTS
FOR (r:Report) ON (r.project, r.created_at);
CREATE INDEX report_project_session IF NOT EXISTS
FOR (r:Report) ON (r.project, r.session_id);
CREATE INDEX job_project_state IF NOT EXISTS
FOR (j:Job) ON (j.project, j.state);
CREATE INDEX job_state IF NOT EXISTS
FOR (j:Job) ON (j.state);
