"""The OpenLineage spec's JSON Schemas, fetched from a registry package, as validators.

The spec (``OpenLineage.json`` 2-0-2 and the facet schemas, Apache-2.0, from
OpenLineage release 1.50.0) ships inside the ``datafusion-openlineage``
crate on crates.io (``tests/schemas/openlineage/``, vendored verbatim by that
crate; see its README there). The test setup downloads that pinned crate
once, checks its SHA-256 and keeps the schemas in ``~/.cache/provgraph``
(like the Neo4j jars), so no schema text is copied into this repository.

``validate_event`` checks an event against the core schema and then every
facet it carries against that facet's own schema (the core schema leaves
facet bodies open): standard facets against the spec's files, provgraph's
against ``docs/schema/openlineage-facets-v1.json``. A facet with no schema
is an error, so a new facet cannot slip past unvalidated.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tarfile
import urllib.request
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource

CRATE = "datafusion-openlineage"
CRATE_VERSION = "0.0.7"
CRATE_SHA256 = "6a76cd49d4134a44d91d0224c9a8a9bbe586900131437680c990a2c7d5c1bf72"
CRATE_URL = f"https://static.crates.io/crates/{CRATE}/{CRATE}-{CRATE_VERSION}.crate"
SCHEMA_DIR_IN_CRATE = f"{CRATE}-{CRATE_VERSION}/tests/schemas/openlineage/"
CORE_ID = "https://openlineage.io/spec/2-0-2/OpenLineage.json"
PROVGRAPH_FACETS = Path(__file__).parents[2] / "docs/schema/openlineage-facets-v1.json"


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "provgraph" / f"openlineage-spec-{CRATE_VERSION}"


def spec_dir() -> Path:
    """The folder holding ``OpenLineage.json`` and ``facets/``; downloaded on first use."""
    target = cache_dir()
    if (target / "OpenLineage.json").is_file():
        return target
    with urllib.request.urlopen(CRATE_URL, timeout=60) as response:
        blob = response.read()
    digest = hashlib.sha256(blob).hexdigest()
    if digest != CRATE_SHA256:
        raise RuntimeError(f"{CRATE_URL}: sha256 {digest}, expected {CRATE_SHA256}")
    partial = target.with_name(target.name + ".partial")
    partial.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(blob), mode="r:gz") as archive:
        for member in archive.getmembers():
            if member.isfile() and member.name.startswith(SCHEMA_DIR_IN_CRATE):
                relative = member.name.removeprefix(SCHEMA_DIR_IN_CRATE)
                if relative.endswith(".json"):
                    out = partial / relative
                    out.parent.mkdir(parents=True, exist_ok=True)
                    extracted = archive.extractfile(member)
                    assert extracted is not None
                    out.write_bytes(extracted.read())
    partial.rename(target)
    return target


@cache
def _registry() -> tuple[Registry, dict[str, str]]:
    """All schemas by ``$id``, and facet name -> the ``$id`` of its schema file."""
    root = spec_dir()
    schemas = [json.loads((root / "OpenLineage.json").read_text())]
    schemas += [json.loads(p.read_text()) for p in sorted((root / "facets").glob("*.json"))]
    schemas.append(json.loads(PROVGRAPH_FACETS.read_text()))
    registry: Registry = Registry()
    facet_files: dict[str, str] = {}
    for schema in schemas:
        registry = registry.with_resource(schema["$id"], Resource.from_contents(schema))
        for name in schema.get("$defs", {}):
            if name.endswith("Facet"):
                facet_files[name] = schema["$id"]
    return registry, facet_files


def _validator(ref: str) -> Draft202012Validator:
    registry, _ = _registry()
    return Draft202012Validator({"$ref": ref}, registry=registry, format_checker=FormatChecker())


def _errors(instance: Any, ref: str) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in _validator(ref).iter_errors(instance)
    ]


CLIENT_FACETS = {"TagsRunFacet": "RunFacet"}
"""Facets the OpenLineage client itself adds on ``emit`` whose schema the crate does not
carry: checked against the core base facet they extend (``_producer``, ``_schemaURL``)."""


def facet_schema_ref(facet: dict[str, Any]) -> str:
    """The schema a facet must satisfy, from the definition name in its ``_schemaURL``."""
    _, facet_files = _registry()
    name = str(facet.get("_schemaURL", "")).rpartition("#/$defs/")[2]
    if name in CLIENT_FACETS and name not in facet_files:
        return f"{CORE_ID}#/$defs/{CLIENT_FACETS[name]}"
    if name not in facet_files:
        raise AssertionError(f"no schema for facet {name!r} ({facet.get('_schemaURL')})")
    return f"{facet_files[name]}#/$defs/{name}"


def facets_of(event: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every facet of a run event, with where it sits."""
    found = [(f"run.facets.{k}", v) for k, v in event["run"].get("facets", {}).items()]
    found += [(f"job.facets.{k}", v) for k, v in event["job"].get("facets", {}).items()]
    for side in ("inputs", "outputs"):
        for index, dataset in enumerate(event.get(side, [])):
            for group in ("facets", "inputFacets", "outputFacets"):
                for key, facet in (dataset.get(group) or {}).items():
                    found.append((f"{side}[{index}].{group}.{key}", facet))
    return found


def validate_event(event: dict[str, Any]) -> None:
    """Raise AssertionError listing every way ``event`` breaks the spec or a facet schema."""
    problems = [f"event: {p}" for p in _errors(event, f"{CORE_ID}#/$defs/RunEvent")]
    for where, facet in facets_of(event):
        problems += [f"{where}: {p}" for p in _errors(facet, facet_schema_ref(facet))]
    if problems:
        raise AssertionError("\n".join(problems))


def validate_against(instance: Any, ref: str) -> list[str]:
    """Errors of ``instance`` against the schema at ``ref`` (for the negative tests)."""
    return _errors(instance, ref)
