"""Security headers (issue 37, item 6): the web client's strict Content-Security-Policy, nosniff, the referrer
policy and no framing, on the page, its files and every API answer (the hot routes' front included)."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from services.adapters.api.security_headers import policy_for_page
from services.web import STATIC_DIR

from .test_api import bearer, new_game


@pytest.fixture(params=["fake"])
def clients(request, prefix):  # headers do not depend on the backend
    import fakeredis

    server = fakeredis.FakeServer()
    yield lambda: fakeredis.FakeRedis(server=server)


def _directives(policy: str) -> dict[str, list[str]]:
    return {name: rest for name, *rest in (part.split() for part in policy.split(";") if part.strip())}


def test_the_page_runs_no_inline_script_and_its_import_map_by_hash(api):
    answer = api.get("/")
    policy = _directives(answer.headers["Content-Security-Policy"])
    page = answer.content
    maps = re.findall(rb'<script type="importmap">(.*?)</script>', page, re.DOTALL)
    assert len(maps) == 1
    digest = base64.b64encode(hashlib.sha256(maps[0]).digest()).decode()
    assert policy["script-src"] == ["'self'", f"'sha256-{digest}'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in policy["style-src"] and "'unsafe-eval'" not in policy["script-src"]
    # every other script of the page is a file: an inline one would need a hash the policy does not give
    scripts = re.findall(rb"<script([^>]*)>(.*?)</script>", page, re.DOTALL)
    assert all(b"src=" in attributes or b'type="importmap"' in attributes for attributes, _ in scripts), scripts
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "no-referrer"


def test_the_policy_follows_the_page_it_is_sent_with():
    """Computed from the bytes served: an edited import map keeps working, an added inline script does not."""
    page = (STATIC_DIR / "index.html").read_bytes()
    edited = page.replace(b'"htm":', b'"htm2": "/static/x.js", "htm":')
    assert policy_for_page(page) != policy_for_page(edited)
    assert policy_for_page(b"<script>alert(1)</script>").count("sha256") == 0


@pytest.mark.parametrize("path", ["/static/app.css", "/static/js/app.js", "/sw.js", "/health", "/games/types",
                                  "/lobby", "/nowhere"])
def test_files_and_api_answers_carry_the_headers(api, path):
    answer = api.get(path)
    assert answer.headers["X-Content-Type-Options"] == "nosniff", path
    assert answer.headers["Referrer-Policy"] == "no-referrer"
    assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]


def test_the_hot_routes_carry_them_too(api):
    created = new_game(api)
    for answer in (api.get(f"/games/{created['game_id']}"),
                   api.get(f"/games/{created['game_id']}/legal", headers=bearer(created["seats"][0]["token"]))):
        assert answer.status_code == 200
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert list(answer.headers.keys()).count("content-security-policy") == 1


def test_the_api_docs_keep_their_inline_start_but_cannot_be_framed(api):
    answer = api.get("/docs")
    assert answer.status_code == 200
    assert _directives(answer.headers["Content-Security-Policy"]) == {
        "frame-ancestors": ["'none'"], "object-src": ["'none'"], "base-uri": ["'none'"]}
