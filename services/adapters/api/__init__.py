"""The HTTP API (FastAPI): routers per resource, shared dependencies in deps.py."""
