"""API keys: project-scoped, role-bearing, stored hashed (no web framework imported here).

The CLI (``provgraph keys``) imports :mod:`provgraph.usecases.keys`, so this
package must stay importable without FastAPI; the request dependency lives in
:mod:`services.api.auth.dependency`.
"""
