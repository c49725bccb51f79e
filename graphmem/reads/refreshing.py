"""``Refreshing[T]``: one value built on first use, rebuilt in the background once old.

A reader keeps a few things built from the whole namespace (the cross-script name index,
whether any name is in Hangul). Building one can take seconds at 100k names, so no
question waits for a rebuild: past its TTL the value keeps serving while a new one is
built on a background thread. Writes made through this process are applied at once by a
catch-up function; those made during a rebuild are applied to the new value as well, so
that it never knows less than the old one did.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

log = logging.getLogger("graphmem.evidence")

__all__ = ["Refreshing"]

T = TypeVar("T")


@dataclass(frozen=True)
class _Kept(Generic[T]):
    built: float  # time.monotonic() when the value was built (or last replaced)
    value: T


class Refreshing(Generic[T]):
    """A value ``build()`` made, rebuilt on a background thread once older than ``ttl``
    seconds while the old one keeps serving.

    ``catch_up(value, names)`` brings a value up to date with the entity names this
    process has just written. It may change the value in place and return it (an index
    that grows; the value keeps its age, so it is still rebuilt on time), or return a new
    value, which replaces the old one with a fresh age. ``seed``: the value a catch-up
    starts from before the first build (``None``: names written before then are left to
    the first build, which reads them from the store).
    """

    def __init__(
        self,
        name: str,
        owner: str,
        build: Callable[[], T],
        catch_up: Callable[[T, set[str]], T],
        ttl: float,
        *,
        seed: T | None = None,
    ) -> None:
        self.name = name  # what it is, and whose (thread names and log lines)
        self.owner = owner
        self.ttl = ttl
        self._build = build
        self._catch_up = catch_up
        self._seed = seed
        self._kept: _Kept[T] | None = None
        self._lock = threading.Lock()
        # While a rebuild runs: the names written since it started.
        self._pending: set[str] | None = None

    def get(self) -> T:
        """The value, built on first use (one first build at a time: concurrent callers
        on a cold reader would each build the same thing)."""
        kept = self._kept
        if kept is not None:
            if time.monotonic() - kept.built > self.ttl:
                self._refresh()
            return kept.value
        with self._lock:
            kept = self._kept
            if kept is None:
                kept = _Kept(time.monotonic(), self._build())
                self._kept = kept
            return kept.value

    def names_added(self, names: set[str]) -> None:
        """Names just written by this process: the value is caught up with them, and a
        rebuild running now applies them to the new value too."""
        with self._lock:  # so that a rebuild finishing now cannot lose them
            if self._pending is not None:
                self._pending.update(names)
            kept = self._kept
        current = kept.value if kept is not None else self._seed
        if current is None:
            return
        # Outside the lock: a first build holds it for seconds.
        fresh = self._catch_up(current, names)
        if fresh is not current:
            with self._lock:
                if self._kept is kept:  # else a build that already read these names won
                    self._kept = _Kept(time.monotonic(), fresh)

    def _refresh(self) -> None:
        with self._lock:
            if self._pending is not None:
                return  # one rebuild at a time
            self._pending = set()

        def rebuild() -> None:
            try:
                fresh = self._build()
            except Exception:  # the store is down or closed: keep the old one a while
                log.warning(
                    "rebuilding the %s of %s failed; keeping the old one",
                    self.name,
                    self.owner,
                    exc_info=True,
                )
                assert self._kept is not None  # only a built value is refreshed
                fresh = self._kept.value
            with self._lock:
                added, self._pending = self._pending, None
                if added:
                    fresh = self._catch_up(fresh, added)
                self._kept = _Kept(time.monotonic(), fresh)

        threading.Thread(
            target=rebuild, name=f"graphmem-{self.name}-{self.owner}", daemon=True
        ).start()
