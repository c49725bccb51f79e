"""The embedded default: a real Neo4j 5.26 Community server run from Maven Central jars.

No Docker and no Neo4j tarball: ``pom.xml`` beside this file names the server and the
Browser; Maven copies their jars into a cache folder once, and ``java`` runs
``org.neo4j.server.CommunityEntryPoint`` with the JVM flags the Neo4j distribution uses.
The server is started in its own process group so it outlives the command that started
it; a pid file in the data folder lets later commands find, reuse and stop it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from graphmem._errors import LocalNeo4jError, MissingToolError, PortInUseError
from graphmem.browser import post_connect_command
from graphmem.local_neo4j._process import pid_alive as _pid_alive

__all__ = ["NEO4J_VERSION", "LocalNeo4j", "ServerStatus", "default_home"]

NEO4J_VERSION = "5.26.30"
BROWSER_VERSION = "5.24.0"
_POM = Path(__file__).with_name("pom.xml")
_ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"

# The flags Neo4j's own launcher passes (conf/neo4j.conf `server.jvm.additional`).
_JVM_FLAGS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "-Dlog4j2.disable.jmx=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
]


def default_home() -> Path:
    """Where jars and the default data folder live: ``$GRAPHMEM_HOME`` or ``~/.cache/graphmem``."""
    env = os.environ.get("GRAPHMEM_HOME")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "graphmem"


@dataclass(frozen=True)
class ServerStatus:
    running: bool
    pid: int | None
    bolt_url: str
    browser_url: str
    data_dir: str
    log_path: str
    reused: bool = False

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def _port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def _is_our_server(pid: int) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return _pid_alive(pid)
    return _ENTRY_POINT in cmdline


class LocalNeo4j:
    """Fetch, start, reuse, inspect and stop the local Neo4j server."""

    def __init__(
        self,
        data_dir: str | Path | None = None,
        *,
        home: str | Path | None = None,
        bolt_port: int = 7687,
        http_port: int = 7474,
        heap: str | None = None,
        pagecache: str | None = None,
    ) -> None:
        self.home = Path(home).expanduser() if home else default_home()
        data = Path(data_dir).expanduser() if data_dir else self.home / "server"
        self.data_dir = data.resolve()
        self.bolt_port = bolt_port
        self.http_port = http_port
        self.heap = heap or os.environ.get("GRAPHMEM_NEO4J_HEAP", "2g")
        self.pagecache = pagecache or os.environ.get("GRAPHMEM_NEO4J_PAGECACHE", "1g")
        self.private = False  # a compaction's own server, on ports no client knows

    def on_ports(self, bolt_port: int, http_port: int) -> LocalNeo4j:
        """The same data folder served on other ports, for the compaction alone."""
        other = LocalNeo4j(
            self.data_dir,
            home=self.home,
            bolt_port=bolt_port,
            http_port=http_port,
            heap=self.heap,
            pagecache=self.pagecache,
        )
        other.private = True
        return other

    # -- paths ---------------------------------------------------------------
    @property
    def lib_dir(self) -> Path:
        return self.home / f"neo4j-{NEO4J_VERSION}" / "lib"

    @property
    def log_path(self) -> Path:
        return self.data_dir / "logs" / "console.log"

    @property
    def _pid_file(self) -> Path:
        return self.data_dir / "run" / "graphmem-neo4j.json"

    @property
    def bolt_url(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/browser/"

    # -- fetching --------------------------------------------------------------
    def fetch(self) -> Path:
        """Copy the server and Browser jars from Maven Central into the cache, once."""
        marker = self.lib_dir / ".complete"
        if marker.exists():
            return self.lib_dir
        mvn = shutil.which("mvn")
        if mvn is None:
            raise MissingToolError(
                "Maven ('mvn') is needed once to download the Neo4j jars. "
                "Install it (Debian: apt-get install maven) or set NEO4J_URI to a running Neo4j."
            )
        self._require_java()
        self.lib_dir.mkdir(parents=True, exist_ok=True)
        cmd = [
            mvn,
            "-B",
            "-q",
            "-f",
            str(_POM),
            f"-Dmaven.repo.local={self.home / 'm2'}",
            f"-Dneo4j.version={NEO4J_VERSION}",
            f"-Dbrowser.version={BROWSER_VERSION}",
            "dependency:copy-dependencies",
            f"-DoutputDirectory={self.lib_dir}",
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise LocalNeo4jError(
                "Maven could not fetch the Neo4j jars (exit "
                f"{proc.returncode}):\n{(proc.stdout + proc.stderr)[-2000:]}"
            )
        marker.write_text(NEO4J_VERSION)
        return self.lib_dir

    @staticmethod
    def _require_java() -> str:
        java = shutil.which("java")
        if java is None:
            raise MissingToolError(
                "Java 17+ is needed to run the local Neo4j. Install it "
                "(Debian: apt-get install openjdk-17-jre-headless) or set NEO4J_URI."
            )
        return java

    # -- state -------------------------------------------------------------------
    def _read_pid(self) -> int | None:
        try:
            info = json.loads(self._pid_file.read_text())
        except (OSError, ValueError):
            return None
        pid = int(info.get("pid", 0))
        if not (pid and _pid_alive(pid) and _is_our_server(pid)):
            return None
        if bool(info.get("private")) != self.private:
            compactor = int(info.get("compactor") or 0)
            if not self.private and not (compactor > 0 and _pid_alive(compactor)):
                # A compaction killed mid-way left its private server running on the
                # half-written database: stop it, so the old database can come back.
                self._kill(pid, timeout=60.0)
                with contextlib.suppress(OSError):
                    self._pid_file.unlink()
            return None
        return pid

    def _mark_stopping(self) -> None:
        """Record in the pid file that this process is stopping the server, so that a
        start meanwhile neither reuses a server about to exit nor races a live stop."""
        with contextlib.suppress(OSError, ValueError):
            info = json.loads(self._pid_file.read_text())
            tmp = self._pid_file.with_suffix(".tmp")
            tmp.write_text(json.dumps({**info, "stopping": os.getpid()}))
            os.replace(tmp, self._pid_file)  # never a half-written pid file

    def _stopper(self) -> int:
        """The process that marked the server as stopping, or 0."""
        try:
            return int(json.loads(self._pid_file.read_text()).get("stopping") or 0)
        except (OSError, ValueError, TypeError, AttributeError):
            return 0

    def _http_ok(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.http_port}/", timeout=2) as r:
                return r.status == 200 and "neo4j_version" in r.read().decode()
        except (urllib.error.URLError, OSError, ValueError):
            return False

    def status(self) -> ServerStatus:
        pid = self._read_pid()
        running = pid is not None and self._http_ok() and _port_open(self.bolt_port)
        return ServerStatus(
            running=running,
            pid=pid,
            bolt_url=self.bolt_url,
            browser_url=self.browser_url,
            data_dir=str(self.data_dir),
            log_path=str(self.log_path),
        )

    # -- start / stop --------------------------------------------------------------
    def _write_conf(self) -> Path:
        conf_dir = self.data_dir / "conf"
        conf_dir.mkdir(parents=True, exist_ok=True)
        settings = {
            "server.default_listen_address": "127.0.0.1",
            "server.bolt.listen_address": f"127.0.0.1:{self.bolt_port}",
            "server.http.listen_address": f"127.0.0.1:{self.http_port}",
            "server.https.enabled": "false",
            "dbms.security.auth_enabled": "false",
            "dbms.usage_report.enabled": "false",
            "server.directories.data": str(self.data_dir / "data"),
            "server.directories.logs": str(self.data_dir / "logs"),
            "server.memory.pagecache.size": self.pagecache,
            # Erased text must not linger in transaction logs: keep only the newest log
            # (and whatever crash recovery needs), in files small enough to rotate often.
            "db.tx_log.rotation.retention_policy": "keep_none",
            "db.tx_log.rotation.size": "16M",
            # Neo4j Browser: graphmem's graph style on every connect, and no telemetry (nor
            # its consent banner over the graph) for a server that lives on one machine.
            "browser.post_connect_cmd": post_connect_command(),
            "client.allow_telemetry": "false",
            # `:play` may fetch graphmem's guide from the service on this machine.
            "browser.remote_content_hostname_whitelist": "localhost,127.0.0.1",  # 5.26's name
        }
        text = "# Written by graphmem on every start; edit graphmem.local_neo4j instead.\n"
        text += "".join(f"{k}={v}\n" for k, v in settings.items())
        (conf_dir / "neo4j.conf").write_text(text)
        return conf_dir

    def start(self, timeout: float = 180.0, *, restore: bool = True) -> ServerStatus:
        """Start the server, or reuse the one already running from this data folder.
        A compaction that never finished is undone first (``restore=False`` is the
        compaction's own restart)."""
        from graphmem.local_neo4j.compact import discard_abandoned, restore_interrupted

        pid = self._read_pid()
        stopper = self._stopper() if pid is not None else 0
        if stopper and stopper != os.getpid() and _pid_alive(stopper):
            raise LocalNeo4jError(
                f"Neo4j on {self.data_dir} is being stopped by process {stopper} (a stop "
                "or a compaction); start it again once that has ended."
            )
        if pid is not None and stopper:
            # A stop was under way when its caller died (a compaction killed as it
            # stopped the server): the server may still answer for a moment, so
            # reusing it would hand out a server about to go. Finish the stop.
            self._kill(pid, timeout=60.0)
            with contextlib.suppress(OSError):
                self._pid_file.unlink()
            pid = None
        if pid is not None:
            try:
                self._wait_ready(pid, timeout)
            except LocalNeo4jError:
                if _pid_alive(pid):
                    raise
                # It was shutting down (a stop, or a compaction killed as it stopped
                # the server): start afresh below.
                with contextlib.suppress(OSError):
                    self._pid_file.unlink()
            else:
                if not self.private:
                    discard_abandoned(self)
                return replace(self._ready_status(), reused=True)

        if restore:
            restore_interrupted(self)  # a compaction cut short keeps the old database
        for port in (self.bolt_port, self.http_port):
            if _port_open(port):
                what = (
                    "a Neo4j server not started from this data folder"
                    if self._http_ok()
                    else "another program"
                )
                raise PortInUseError(
                    f"Port {port} is taken by {what}. Stop it, choose other ports "
                    "(--bolt-port/--http-port), or point graphmem at it with NEO4J_URI."
                )
        java = self._require_java()
        lib = self.fetch()
        conf_dir = self._write_conf()
        for sub in ("data", "logs", "run", "plugins", "import"):
            (self.data_dir / sub).mkdir(parents=True, exist_ok=True)
        cmd = [
            java,
            f"-Xms{self.heap}",
            f"-Xmx{self.heap}",
            *_JVM_FLAGS,
            "-cp",
            f"{lib}/*",
            _ENTRY_POINT,
            f"--home-dir={self.data_dir}",
            f"--config-dir={conf_dir}",
            "--console-mode",
        ]
        log = self.log_path.open("ab")
        proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=self.data_dir,
            start_new_session=True,
        )
        log.close()
        self._pid_file.write_text(
            json.dumps(
                {
                    "pid": proc.pid,
                    "bolt_port": self.bolt_port,
                    "http_port": self.http_port,
                    "private": self.private,
                    "compactor": os.getpid() if self.private else None,
                }
            )
        )
        self._wait_ready(proc.pid, timeout)
        return self._ready_status()

    def _ready_status(self) -> ServerStatus:
        """The status of a server ``_wait_ready`` just saw answer: running, whatever a
        second probe under load would say (its 2 s HTTP timeout can expire on a busy
        machine, as in CI)."""
        return replace(self.status(), running=True)

    def _wait_ready(self, pid: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not _pid_alive(pid):
                raise LocalNeo4jError(
                    f"Neo4j exited during start-up; last lines of {self.log_path}:\n"
                    f"{self._log_tail()}"
                )
            if self._http_ok() and _port_open(self.bolt_port):
                return
            time.sleep(0.5)
        raise LocalNeo4jError(
            f"Neo4j did not answer within {timeout:.0f}s; see {self.log_path}:\n{self._log_tail()}"
        )

    def _log_tail(self, n: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"

    def erasures_since_compaction(self) -> int:
        """Records erased on the running server since it was last compacted."""
        from graphmem.local_neo4j.compact import erasures_since_compaction

        return erasures_since_compaction(self)

    def compact(
        self, progress: Callable[[str], None] = lambda _: None, *, keep_running: bool = True
    ) -> dict[str, Any]:
        """Rewrite the database so that deleted and erased data leaves the disk (Neo4j
        Community keeps freed records, Lucene segments and transaction logs); see
        ``graphmem.local_neo4j.compact``."""
        from graphmem.local_neo4j.compact import compact

        return compact(self, progress=progress, keep_running=keep_running)

    def stop(self, timeout: float = 60.0) -> bool:
        """SIGTERM the server and wait for it; returns False when none was running."""
        pid = self._read_pid()
        if pid is None:
            return False
        self._mark_stopping()
        self._kill(pid, timeout)
        with contextlib.suppress(OSError):
            self._pid_file.unlink()
        return True

    @staticmethod
    def _kill(pid: int, timeout: float) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and _pid_alive(pid):
            time.sleep(0.25)
        if _pid_alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
