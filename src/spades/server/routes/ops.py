"""For the people who run the server: liveness and readiness probes, and the API's documentation."""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

from spades.server.deps import ServiceDep
from spades.server.schemas import StatusOut, errors

router = APIRouter(tags=["operations"])

_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)
_CDN = "https://cdn.jsdelivr.net"


@router.get("/healthz")
async def healthz() -> StatusOut:
    """The process is up and answering: answered on the event loop itself, so that it says whether the
    loop runs, whatever the worker threads are waiting for (e.g. a database another program locked)."""
    return StatusOut(status="ok")


@router.get("/readyz", responses=errors(503))
def readyz(service: ServiceDep) -> StatusOut:
    """The database answers, takes a write and has this code's schema: send traffic here."""
    service.store.ready()
    return StatusOut(status="ok")


@router.get("/docs", include_in_schema=False)
def docs(request: Request) -> HTMLResponse:
    """Swagger UI on the OpenAPI document, with a policy that allows its own inline script only."""
    page = get_swagger_ui_html(openapi_url=request.app.openapi_url, title="Spades API")
    scripts = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in _INLINE_SCRIPT.findall(bytes(page.body).decode()))
    page.headers["Content-Security-Policy"] = (
        f"default-src 'self'; script-src {_CDN} {scripts}; style-src {_CDN}; "
        "img-src 'self' data: https://fastapi.tiangolo.com; connect-src 'self'; object-src 'none'; "
        "base-uri 'none'; frame-ancestors 'none'")
    return page
