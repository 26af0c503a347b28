"""Reports and verification jobs of the embedded store (the GraphStore port's record part).

A mixin of :class:`~provgraph.store.memory.MemoryGraphStore`, like the audit
operations it builds on (a report is sealed into the project's audit chain in
the same log line): the store provides the lock, the project state and the log.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from provgraph.audit.chain import report_entry
from provgraph.mapping import utc_text
from provgraph.store.codec import decode_cursor, encode_cursor, job_to_dict, report_to_dict
from provgraph.store.memory_audit import MemoryAuditMixin
from provgraph.store.memory_state import unrequested_outputs
from provgraph.store.shared import neg_time, report_matches, report_sort_key
from provgraph.store.types import (
    MAX_JOB_LISTING,
    MAX_PAGE_SIZE,
    Job,
    Page,
    ReportFilter,
    StoredReport,
    bounded_int,
)


class MemoryRecordsMixin(MemoryAuditMixin):
    """Versioned reports and job records, kept per project and logged."""

    def save_report(self, project: str, report: StoredReport) -> StoredReport:
        return self._save_report(project, report, None)[0]

    def complete_job(
        self, project: str, report: StoredReport, job: Job
    ) -> tuple[StoredReport, Job]:
        stored, done = self._save_report(project, report, job)
        assert done is not None
        return stored, done

    def _save_report(
        self, project: str, report: StoredReport, job: Job | None
    ) -> tuple[StoredReport, Job | None]:
        """The report (and the job that produced it) in one log line: both or neither."""
        with self._lock:
            stored = self._apply_report(project, report)
            doc = report_to_dict(stored)
            record: dict[str, Any] = {"op": "report", "project": project, "report": doc}
            if self.audit_chain:
                entry = self._seal(project, report_entry(doc))
                self._project(project).audit.append(entry)
                record["entry"] = entry.to_dict()
            if job is not None:
                job = replace(job, report_version=stored.version)
                self._project(project).jobs[job.id] = job
                record["job"] = job_to_dict(job)
            self._append(record)
            return stored, job

    def _apply_report(self, project: str, report: StoredReport) -> StoredReport:
        versions = self._project(project).reports.setdefault(report.output_id, [])
        for position, existing in enumerate(versions):
            if existing.config_hash == report.config_hash:
                stored = replace(report, version=existing.version)
                versions[position] = stored
                return stored
        stored = replace(report, version=len(versions) + 1)
        versions.append(stored)
        return stored

    def get_report(
        self, project: str, output_id: str, version: int | None = None
    ) -> StoredReport | None:
        with self._lock:
            versions = self._project(project).reports.get(output_id, [])
            if not versions:
                return None
            if version is None:
                return versions[-1]
            return next((r for r in versions if r.version == version), None)

    def list_reports(
        self,
        project: str,
        *,
        first: int = 50,
        after: str | None = None,
        filter: ReportFilter | None = None,
    ) -> Page[StoredReport]:
        bounded_int(first, name="first", low=1, high=MAX_PAGE_SIZE)
        with self._lock:
            reports = [r for rs in self._project(project).reports.values() for r in rs]
        if filter is not None:
            reports = [r for r in reports if report_matches(r, filter)]
        reports.sort(key=report_sort_key)
        if after is not None:
            created, rid = decode_cursor(after, arity=2)
            reports = [r for r in reports if report_sort_key(r) > (neg_time(created), rid)]
        page = reports[:first]
        cursor = encode_cursor(utc_text(page[-1].created_at), page[-1].id) if page else None
        return Page(tuple(page), cursor, len(reports) > first)

    def save_job(self, project: str, job: Job) -> Job:
        with self._lock:
            self._project(project).jobs[job.id] = job
            self._append({"op": "job", "project": project, "job": job_to_dict(job)})
            return job

    def get_job(self, project: str, job_id: str) -> Job | None:
        with self._lock:
            return self._project(project).jobs.get(job_id)

    def list_jobs(
        self, project: str | None, *, state: str | None = None, limit: int = 100
    ) -> list[Job]:
        bounded_int(limit, name="limit", low=0, high=MAX_JOB_LISTING)
        with self._lock:
            projects = (
                [self._project(project)] if project is not None else list(self._projects.values())
            )
            jobs = [
                j for p in projects for j in p.jobs.values() if state is None or j.state == state
            ]
        jobs.sort(key=lambda j: (j.created_at, j.id))
        return jobs[:limit]

    def outputs_without_jobs(
        self, project: str | None = None, *, limit: int = 100
    ) -> list[tuple[str, str]]:
        bounded_int(limit, name="limit", low=0, high=MAX_JOB_LISTING)
        with self._lock:
            chosen = {project: self._project(project)} if project is not None else self._projects
            return unrequested_outputs(chosen, limit)
