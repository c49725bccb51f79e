"""uvicorn's HTTP/1.1 protocols, answering requests they cannot parse with problem JSON.

A request line or header uvicorn cannot parse (a malformed ``Content-Length``, say) never
reaches the app: uvicorn answers 400 itself, in text/plain. Every other error of the
service is RFC 7807 problem JSON, so this one is too.

``http_protocol()`` picks httptools (uvicorn's fast C parser) when it is installed, as
with ``uvicorn[standard]``, else h11.
"""

from __future__ import annotations

import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from graphmem.wire import PROBLEM_JSON, problem_body

__all__ = ["ProblemH11Protocol", "http_protocol"]


def _problem_400(msg: str) -> bytes:
    return json.dumps(
        problem_body(
            400,
            f"{msg}: the request line or a header could not be parsed "
            "(check Content-Length and the header syntax)",
        )
    ).encode()


class ProblemH11Protocol(H11Protocol):
    def send_400_response(self, msg: str) -> None:
        body = _problem_400(msg)
        headers = [
            (b"content-type", PROBLEM_JSON.encode()),
            (b"connection", b"close"),
            (b"content-length", str(len(body)).encode()),
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event))
        self.transport.close()


# The httptools protocol with the same 400 answer, when httptools is installed.
_problem_httptools: type | None = None

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # httptools is not installed: h11 serves
    pass
else:

    class ProblemHttpToolsProtocol(HttpToolsProtocol):
        def send_400_response(self, msg: str) -> None:
            body = _problem_400(msg)
            head = (
                b"HTTP/1.1 400 Bad Request\r\ncontent-type: "
                + PROBLEM_JSON.encode()
                + b"\r\nconnection: close\r\ncontent-length: "
                + str(len(body)).encode()
                + b"\r\n\r\n"
            )
            self.transport.write(head + body)
            self.transport.close()

    _problem_httptools = ProblemHttpToolsProtocol


def http_protocol() -> type:
    """The protocol class the service runs uvicorn with."""
    return ProblemH11Protocol if _problem_httptools is None else _problem_httptools
