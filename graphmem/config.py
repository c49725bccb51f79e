"""One configuration for ``Memory``, the REST service and the CLI.

``MemoryConfig`` says where Neo4j is and how a namespace reads and writes: the relation
registry, the extractor used for records that arrive as plain text, the embedder (soft
key identity, dense reads), Korean aliases and the defaults of a memory block. Build it
in code, or with ``MemoryConfig.from_env()``; every interface reads the same object.

``BlockOptions`` is the validated form of a block request's options: an unknown
``identity`` or ``gate`` is an ``InvalidInputError``, never a silently disabled filter.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Literal, get_args

from graphmem._errors import InvalidInputError
from graphmem.domain.aliases import KOREAN_ALIASES
from graphmem.domain.keys import RelationRegistry

if TYPE_CHECKING:
    from graphmem.domain.soft_keys import SoftKeyMatcher
    from graphmem.extract.base import Extractor
    from graphmem.llm.base import Embedder

__all__ = [
    "EXTRACTOR_NAMES",
    "BlockOptions",
    "Gate",
    "Identity",
    "MemoryConfig",
    "Tokenizer",
    "check_number",
    "parse_embedder",
]

Identity = Literal["posterior", "hard", "participant", "none"]
Gate = Literal["reading", "slot", "margin", "none"]
Tokenizer = Literal["morphemes", "bigrams"]
# Where block snapshots are built: a child process keeps the GIL free for readers.
Builder = Literal["auto", "process", "thread"]
# Extractors that can be named in configuration (GRAPHMEM_EXTRACTOR, the service, the CLI).
EXTRACTOR_NAMES = ("none", "chat", "llm")

MAX_BLOCK_LINES = 50
MAX_BLOCK_CHARS = 20_000
MAX_DEADLINE_MS = 60_000.0


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InvalidInputError(f"unknown {name} {value!r}; choose from {list(allowed)}")
    return str(value)


def check_number(name: str, value: object, low: float, high: float, integer: bool = False) -> None:
    """``value`` must be a number (an integer when asked) from ``low`` to ``high``; the
    one bounds check of every setting."""
    kind = int if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kind) or not low <= value <= high:
        what = "an integer" if integer else "a number"
        raise InvalidInputError(
            f"{name} must be {what} from {_plain(low)} to {_plain(high)}, got {value!r}"
        )


def _plain(x: float) -> str:
    return str(x) if isinstance(x, int) else f"{x:g}"


def _env_flag(name: str, raw: str) -> bool:
    """A 1/0 (true/false, yes/no) environment variable, or a clear error."""
    flag = raw.strip().lower()
    if flag not in ("1", "0", "true", "false", "yes", "no"):
        raise InvalidInputError(f"{name} must be 1 or 0, got {raw!r}")
    return flag in ("1", "true", "yes")


def parse_embedder(spec: str, ollama_url: str | None) -> tuple[str, str]:
    """An embedder's name read: ``("e5" | "none", "")`` or ``("ollama", model)``; anything
    else is a typed error that says what to write instead."""
    name = spec.strip()
    kind = name.lower()
    if kind in ("e5", "none"):
        return kind, ""
    model = name[len("ollama:") :].strip() if kind.startswith("ollama:") else ""
    if not model:
        raise InvalidInputError(
            f"unknown embedder {spec!r}; use e5, none or ollama:<model>, or pass an Embedder"
        )
    if not ollama_url:
        raise InvalidInputError(
            f"embedder {spec!r} needs an Ollama URL: set ollama_url (GRAPHMEM_OLLAMA_URL)"
        )
    return "ollama", model


@dataclass(frozen=True)
class BlockOptions:
    """How a memory block is built (see ``Memory.block``). Validated on construction.

    ``identity``: ``posterior`` (the most likely of several people a name could mean),
    ``hard`` (an ambiguous name means the partner), ``participant`` (only records of
    conversations with the partner) or ``none``. ``gate``: ``reading`` (serve only lines
    whose fact states a value of the asked type about the asked topic, read from the
    request and the memory's own relations; see ``graphmem.reads.request_reading``),
    ``slot`` (abstain unless a line states one of the built-in slots), ``margin`` or
    ``none``. ``fresh=True`` reads Neo4j
    now and waits at most ``deadline_ms`` before serving the snapshot.
    """

    deadline_ms: float = 10.0
    fresh: bool = False
    identity: Identity = "posterior"
    gate: Gate = "reading"
    k: int = 6
    max_chars: int = 800
    tau: float = 0.5
    margin: float = 0.2

    def __post_init__(self) -> None:
        _choice("identity", self.identity, get_args(Identity))
        _choice("gate", self.gate, get_args(Gate))
        check_number("deadline_ms", self.deadline_ms, 0, MAX_DEADLINE_MS)
        check_number("k", self.k, 1, MAX_BLOCK_LINES, integer=True)
        check_number("max_chars", self.max_chars, 40, MAX_BLOCK_CHARS, integer=True)
        check_number("tau", self.tau, 0.0, 1.0)
        check_number("margin", self.margin, 0.0, 1.0)
        if not isinstance(self.fresh, bool):
            raise InvalidInputError(f"fresh must be true or false, got {self.fresh!r}")

    def with_overrides(self, **overrides: Any) -> BlockOptions:
        """These options with the given ones replaced (``None`` keeps the default)."""
        given = {k: v for k, v in overrides.items() if v is not None}
        unknown = set(given) - {f.name for f in fields(self)}
        if unknown:
            raise InvalidInputError(f"unknown block options {sorted(unknown)}")
        return replace(self, **given) if given else self


@dataclass(frozen=True)
class MemoryConfig:
    """Everything a ``Memory`` is configured with; shared by the service and the CLI.

    ``neo4j_uri`` ``None`` means the local Neo4j (started if needed). ``extractor`` reads
    records that arrive as plain text (no ``facts``): an ``Extractor`` object, or one of
    ``EXTRACTOR_NAMES``: ``none`` keeps them raw (``unresolved``, ranked for each
    question by ``evidence``), ``chat`` reads them with the rule-based chat extractor (no
    model), ``llm`` uses Ollama at ``ollama_url``. Each namespace gets its own:
    ``registry`` is copied for each namespace, so declarations in one never leak into
    another; a named extractor is built per namespace, an extractor object is copied with
    its ``for_namespace(registry)`` when it has one (else shared), and ``soft_keys`` is
    copied.
    """

    neo4j_uri: str | None = None
    neo4j_auth: tuple[str, str] | None = None
    neo4j_database: str | None = None
    neo4j_http_url: str | None = None  # Neo4j Browser, for ``why``'s link
    # How long a call waits for an unreachable Neo4j before it fails (StoreUnavailableError,
    # a 503 in the service): connecting and retrying share it.
    neo4j_timeout: float = 2.0
    # Neo4j aborts a write transaction still running after this (a batch of 5,000 records
    # takes about a second), so no write commits long after its caller gave up.
    neo4j_write_timeout: float = 120.0
    install_schema: bool = True
    # Keys the ids of records sent without one (see graphmem._secrets); None: a secret
    # file made once in $GRAPHMEM_HOME. Set it when several machines share one Neo4j.
    record_id_secret: str | None = field(default=None, repr=False)
    # Crypto-shredding: record text reaches Neo4j only encrypted with a key of its own,
    # kept in ``key_store`` (a SQLite file outside Neo4j; default
    # $GRAPHMEM_HOME/record-keys.sqlite3) and destroyed on erase. Neo4j Browser then shows
    # ciphertext for record text; names and values stay readable (graphmem.store.sealing).
    seal_text: bool = False
    key_store: str | None = None
    registry: RelationRegistry = field(default_factory=RelationRegistry)
    preserve_history: bool = True
    extractor: Extractor | str = "none"
    # Reads block requests (and ranks raw records for evidence) by meaning: "e5" (bundled,
    # the default), "ollama:<model>", "none", or an Embedder (graphmem.embedding).
    embedder: Embedder | str | None = "e5"
    # Keep the namespace's vectors in Neo4j: a block server reads them at start and embeds
    # what writes add in the background. Off: texts are embedded when a block needs them,
    # once per process (a namespace too large to embed now, a read-only replica).
    keep_vectors: bool = True
    soft_keys: SoftKeyMatcher | None = None  # aligns unseen relation names (needs embedder)
    aliases: Mapping[str, str] = field(default_factory=lambda: dict(KOREAN_ALIASES))
    block: BlockOptions = field(default_factory=BlockOptions)
    # How block ranking tokenizes Korean: Kiwi ``morphemes`` or Hangul character ``bigrams``.
    block_tokenizer: Tokenizer = "morphemes"
    # Where the next block snapshot is built: ``process`` (a child process, so readers
    # never wait on it for the GIL), ``thread`` (this process), ``auto`` (a thread until
    # a build takes longer than a tenth of a second, then the child process).
    block_builder: Builder = "auto"
    # Seconds a thread may hold the GIL while another waits (``sys.setswitchinterval``),
    # set process-wide when blocks start; ``None`` leaves the interpreter's 5 ms. A block
    # waiting on a fresh read's deadline needs the GIL back sooner than that; the service
    # sets 0.0002 (``graphmem.reads.blocks.serving.SWITCH_INTERVAL``).
    block_switch_interval: float | None = None
    ollama_url: str | None = None
    ollama_model: str | None = None
    ollama_timeout: float = 120.0
    # The users' time zone: "tomorrow" and "Friday" in a message are read in it.
    timezone: str = "UTC"

    def __post_init__(self) -> None:
        if isinstance(self.extractor, str):
            _choice("extractor", self.extractor, EXTRACTOR_NAMES)
            if self.extractor == "llm" and not self.ollama_url:
                raise InvalidInputError(
                    "extractor 'llm' needs an Ollama URL: set ollama_url (GRAPHMEM_OLLAMA_URL)"
                )
        if isinstance(self.embedder, str):
            parse_embedder(self.embedder, self.ollama_url)
        if not isinstance(self.block, BlockOptions):
            raise InvalidInputError("block must be a BlockOptions")
        if not isinstance(self.registry, RelationRegistry):
            raise InvalidInputError("registry must be a RelationRegistry")
        if self.neo4j_auth is not None and not (
            isinstance(self.neo4j_auth, tuple)
            and len(self.neo4j_auth) == 2
            and all(isinstance(x, str) for x in self.neo4j_auth)
        ):
            raise InvalidInputError("neo4j_auth must be a (user, password) pair of strings")
        for flag in ("install_schema", "preserve_history", "seal_text"):
            if not isinstance(getattr(self, flag), bool):
                raise InvalidInputError(f"{flag} must be true or false")
        _choice("block_tokenizer", self.block_tokenizer, get_args(Tokenizer))
        _choice("block_builder", self.block_builder, get_args(Builder))
        try:
            from zoneinfo import ZoneInfo

            ZoneInfo(self.timezone)
        except Exception:
            raise InvalidInputError(
                f"unknown timezone {self.timezone!r}; use an IANA name such as 'Asia/Seoul'"
            ) from None
        check_number("ollama_timeout", self.ollama_timeout, 0.1, 3600)
        check_number("neo4j_timeout", self.neo4j_timeout, 0.2, 600)
        if self.record_id_secret is not None and (
            not isinstance(self.record_id_secret, str) or len(self.record_id_secret) < 16
        ):
            raise InvalidInputError("record_id_secret must be a string of 16 or more characters")
        check_number("neo4j_write_timeout", self.neo4j_write_timeout, 1, 3600)
        if self.block_switch_interval is not None:
            check_number("block_switch_interval", self.block_switch_interval, 0.00001, 0.1)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> MemoryConfig:
        """``NEO4J_URI``, ``NEO4J_USER``/``NEO4J_PASSWORD``, ``NEO4J_DATABASE``,
        ``GRAPHMEM_NEO4J_HTTP``, ``GRAPHMEM_NEO4J_TIMEOUT``, ``GRAPHMEM_RECORD_ID_SECRET``,
        ``GRAPHMEM_EXTRACTOR`` (none|chat|llm), ``GRAPHMEM_EMBEDDER`` (e5|none|ollama:<model>),
        ``GRAPHMEM_OLLAMA_URL``, ``GRAPHMEM_OLLAMA_MODEL``, ``GRAPHMEM_TIMEZONE``,
        ``GRAPHMEM_SEAL_TEXT`` (1|0), ``GRAPHMEM_KEY_STORE``, ``GRAPHMEM_KEEP_VECTORS`` (1|0),
        ``GRAPHMEM_BLOCK_BUILDER`` (auto|process|thread); keyword overrides win."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        if env.get("NEO4J_URI"):
            values["neo4j_uri"] = env["NEO4J_URI"]
        if env.get("NEO4J_USER"):
            values["neo4j_auth"] = (env["NEO4J_USER"], env.get("NEO4J_PASSWORD", ""))
        if env.get("NEO4J_DATABASE"):
            values["neo4j_database"] = env["NEO4J_DATABASE"]
        if env.get("GRAPHMEM_NEO4J_HTTP"):
            values["neo4j_http_url"] = env["GRAPHMEM_NEO4J_HTTP"]
        if env.get("GRAPHMEM_RECORD_ID_SECRET"):
            values["record_id_secret"] = env["GRAPHMEM_RECORD_ID_SECRET"]
        if env.get("GRAPHMEM_NEO4J_TIMEOUT"):
            try:
                values["neo4j_timeout"] = float(env["GRAPHMEM_NEO4J_TIMEOUT"])
            except ValueError:
                raise InvalidInputError(
                    "GRAPHMEM_NEO4J_TIMEOUT must be a number of seconds, "
                    f"got {env['GRAPHMEM_NEO4J_TIMEOUT']!r}"
                ) from None
        if env.get("GRAPHMEM_EXTRACTOR"):
            values["extractor"] = env["GRAPHMEM_EXTRACTOR"].strip().lower()
        if env.get("GRAPHMEM_EMBEDDER"):
            values["embedder"] = env["GRAPHMEM_EMBEDDER"].strip()
        if env.get("GRAPHMEM_OLLAMA_URL"):
            values["ollama_url"] = env["GRAPHMEM_OLLAMA_URL"]
        if env.get("GRAPHMEM_OLLAMA_MODEL"):
            values["ollama_model"] = env["GRAPHMEM_OLLAMA_MODEL"]
        if env.get("GRAPHMEM_TIMEZONE"):
            values["timezone"] = env["GRAPHMEM_TIMEZONE"]
        for name, field_name in (
            ("GRAPHMEM_SEAL_TEXT", "seal_text"),
            ("GRAPHMEM_KEEP_VECTORS", "keep_vectors"),
        ):
            if env.get(name):
                values[field_name] = _env_flag(name, env[name])
        if env.get("GRAPHMEM_KEY_STORE"):
            values["key_store"] = env["GRAPHMEM_KEY_STORE"]
        if env.get("GRAPHMEM_BLOCK_BUILDER"):
            values["block_builder"] = env["GRAPHMEM_BLOCK_BUILDER"].strip().lower()
        unknown = set(overrides) - {f.name for f in fields(cls)}
        if unknown:
            raise InvalidInputError(f"unknown configuration {sorted(unknown)}")
        values.update(overrides)
        return cls(**values)

    def with_overrides(self, **overrides: Any) -> MemoryConfig:
        unknown = set(overrides) - {f.name for f in fields(self)}
        if unknown:
            raise InvalidInputError(
                f"unknown configuration {sorted(unknown)}; MemoryConfig takes "
                f"{sorted(f.name for f in fields(self))}"
            )
        return replace(self, **overrides)

    def registry_for(self, namespace: str) -> RelationRegistry:
        """A namespace's own copy of the configured registry."""
        r = self.registry
        return RelationRegistry(
            dict(r.synonyms), dict(r.cardinality), r.strict, dict(r.value_types)
        )

    def build_extractor(self, registry: RelationRegistry | None = None) -> Extractor | None:
        """The extractor this configuration names (``None`` for ``none``), reading
        relations through ``registry`` (the namespace's)."""
        if not isinstance(self.extractor, str):
            # An object is shared by every namespace unless it can make its own copy.
            per_namespace = getattr(self.extractor, "for_namespace", None)
            return per_namespace(registry or self.registry) if per_namespace else self.extractor
        if self.extractor == "none":
            return None
        if self.extractor == "chat":
            from graphmem.extract.chat import ChatExtractor

            return ChatExtractor(registry or self.registry, timezone=self.timezone)
        from graphmem.extract.llm import LLMExtractor
        from graphmem.llm.ollama import DEFAULT_MODEL, OllamaClient

        assert self.ollama_url is not None  # checked in __post_init__
        client = OllamaClient(
            self.ollama_url, model=self.ollama_model or DEFAULT_MODEL, timeout=self.ollama_timeout
        )
        return LLMExtractor(client, registry=registry or self.registry)


# A factory that gives each namespace its registry; the service may take one.
RegistryFactory = Callable[[str], RelationRegistry]
