"""uvicorn's HTTP/1.1 protocol, answering requests it cannot parse with problem JSON.

A request line or header uvicorn cannot parse (a malformed ``Content-Length``, say) never
reaches the app: uvicorn answers 400 itself, in text/plain. Every other error of the
service is RFC 7807 problem JSON, so this one is too.
"""

from __future__ import annotations

import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from graphmem.service import PROBLEM_JSON, problem_body

__all__ = ["ProblemH11Protocol"]


class ProblemH11Protocol(H11Protocol):
    def send_400_response(self, msg: str) -> None:
        body = json.dumps(problem_body(
            400, f"{msg}: the request line or a header could not be parsed "
                 "(check Content-Length and the header syntax)")).encode()
        headers = [(b"content-type", PROBLEM_JSON.encode()), (b"connection", b"close"),
                   (b"content-length", str(len(body)).encode())]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                      h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()
