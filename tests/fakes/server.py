"""A real HTTP server on 127.0.0.1, in a thread, that answers from a script and records requests."""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Request:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or None


@dataclass
class Reply:
    """What to answer: a status, headers, and a body sent as given or as chunks with flushes."""

    status: int = 200
    body: bytes | Iterable[bytes] = b""
    headers: dict[str, str] = field(default_factory=dict)
    hang: bool = False  # read the request, then answer nothing until the server stops


def json_reply(obj: Any, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    return Reply(
        status, json.dumps(obj).encode(), {"Content-Type": "application/json", **(headers or {})}
    )


def html_reply(status: int = 200) -> Reply:
    """What a wrong URL often gets instead of an API: a web page (a proxy's, a login form)."""
    page = b"<!DOCTYPE html><html><head><title>Sign in</title></head><body>Proxy</body></html>"
    return Reply(status, page, {"Content-Type": "text/html; charset=utf-8"})


Responder = Callable[[Request], Reply]


class FakeServer:
    """Answers queued replies first, then `default(request)`; keeps every request in `requests`."""

    def __init__(self, default: Responder) -> None:
        self.default = default
        self.requests: list[Request] = []
        self.violations: list[str] = []  # requests whose shape broke the documented API
        self.queue: deque[Reply] = deque()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)
        self._thread.start()

    def enqueue(self, *replies: Reply) -> None:
        with self._lock:
            self.queue.extend(replies)

    def _next(self, req: Request) -> Reply:
        with self._lock:
            self.requests.append(req)
            if self.queue:
                return self.queue.popleft()
        return self.default(req)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # the body ends when the connection closes

            def do_GET(self) -> None:
                self._serve()

            def do_POST(self) -> None:
                self._serve()

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = json.loads(raw) if raw else None
                req = Request(
                    self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body
                )
                try:
                    reply = fake._next(req)
                except AssertionError as exc:  # a request the documented API would reject
                    fake.violations.append(f"{req.method} {req.path}: {exc!r}")
                    reply = json_reply({"error": f"fake server: bad request: {exc!r}"}, 400)
                if reply.hang:
                    fake._stop.wait()
                    return
                self.send_response(reply.status)
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                chunks = [reply.body] if isinstance(reply.body, bytes) else reply.body
                try:
                    for chunk in chunks:
                        self.wfile.write(chunk)
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler

    def close(self) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()


def refused_url() -> str:
    """A 127.0.0.1 URL where nothing listens: connecting is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"
