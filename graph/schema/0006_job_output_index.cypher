// The sweep's lost-job pass looks jobs up by output, and final outputs by type across projects.
CREATE INDEX job_project_output IF NOT EXISTS
FOR (j:Job) ON (j.project, j.output_id);
CREATE INDEX node_type IF NOT EXISTS
FOR (n:Node) ON (n.type);
