"""``graphmem serve`` in its own process, as users run it, for the benchmarks that
measure the service (load, interfaces, soak)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

__all__ = ["ServiceProcess", "free_port", "graphmem_command", "running_service"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def graphmem_command(*args: str) -> list[str]:
    """The ``graphmem`` command of this environment (the module when no script is there)."""
    exe = Path(sys.executable).with_name("graphmem")
    return [str(exe), *args] if exe.exists() else [sys.executable, "-m", "graphmem.cli", *args]


@dataclass(frozen=True)
class ServiceProcess:
    proc: subprocess.Popen[bytes]
    base_url: str
    env: dict[str, str]  # what it runs with: NEO4J_URI and GRAPHMEM_API_KEYS


@contextmanager
def running_service(
    bolt_url: str,
    keys: Mapping[str, Sequence[str]],
    startup_seconds: float = 60.0,
    args: Sequence[str] = (),
    auth: tuple[str, str] | None = None,
) -> Iterator[ServiceProcess]:
    """Start ``graphmem serve`` on a free port against ``bolt_url`` (as ``auth``, when
    given) with API ``keys`` (and more ``args``, such as ``--workers 2``), wait (up to
    ``startup_seconds``) until ``/healthz`` answers, stop it afterwards."""
    port = free_port()
    env = {
        **os.environ,
        "GRAPHMEM_API_KEYS": json.dumps({k: list(v) for k, v in keys.items()}),
        "NEO4J_URI": bolt_url,
    }
    if auth:
        env["NEO4J_USER"], env["NEO4J_PASSWORD"] = auth
    proc = subprocess.Popen(
        graphmem_command("serve", "--port", str(port), *args),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_seconds
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        yield ServiceProcess(proc, base, env)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
