"""Only this computer may use the desk: a request whose `Host` is not a local name (a
page elsewhere reaching us through DNS rebinding) or whose `Origin` is another site (a
form on a page elsewhere posting to us) is refused before any route sees it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARDS = frozenset({"0.0.0.0", "::", ""})

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

SECURITY_HEADERS = [
    ("Content-Security-Policy", "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                                "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),  # "no-referrer" would make our own forms post `Origin: null`
    ("Cache-Control", "no-store"),
]


def _hostname(netloc: str) -> tuple[str, int | None]:
    try:
        parts = urlsplit(f"//{netloc}")
        return (parts.hostname or "").lower(), parts.port
    except ValueError:
        return "", None


def allowed_names(bound: str) -> frozenset[str] | None:
    """The host names a request may name: the local ones and the address listened on;
    None (any) when listening on every interface, where only `Origin` is checked."""
    if bound in WILDCARDS:
        return None
    return LOCAL_NAMES | {bound.strip("[]").lower()}


def refusal(environ: dict[str, Any], names: frozenset[str] | None, port: int | None) -> str | None:
    """Why this request is refused, or None."""
    host, host_port = _hostname(environ.get("HTTP_HOST", ""))
    if names is not None and host not in names:
        return f"Host {environ.get('HTTP_HOST', '')!r} is not this computer"
    if port is not None and host_port is not None and host_port != port:
        return f"Host {environ.get('HTTP_HOST', '')!r} names another port"
    origin = environ.get("HTTP_ORIGIN")
    if origin is not None:
        o_host, o_port = _hostname(urlsplit(origin).netloc) if origin.startswith("http://") else ("", None)
        if not o_host or o_host != host or o_port != host_port:
            return f"Origin {origin!r} is another site"
    return None


def guarded(app: WSGIApp, bound: str = "127.0.0.1", port: int | None = None) -> WSGIApp:
    """`app` behind the check above, every answer with headers that keep pages elsewhere
    from framing it or running anything in it."""
    names = allowed_names(bound)

    def wsgi(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        why = refusal(environ, names, port)
        if why is not None:
            body = f"403 Forbidden: {why}; the desk answers only this computer.\n".encode()
            start_response("403 Forbidden", [("Content-Type", "text/plain; charset=utf-8"),
                                             ("Content-Length", str(len(body))), *SECURITY_HEADERS])
            return [body]

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            have = {k.lower() for k, _ in headers}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k.lower() not in have]
            return start_response(status, headers + extra, exc_info) if exc_info else start_response(
                status, headers + extra)

        return app(environ, start)

    return wsgi
