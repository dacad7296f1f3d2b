"""Every check slot of selector.io.limits held by another thread, for tests of what a check does when none is free."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from selector.io import limits


@contextmanager
def every_check_slot_held(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Hold all ``limits.MAX_CONCURRENT_CHECKS`` slots while the block runs (a check then waits 0.05 s, not 30 s)."""
    monkeypatch.setattr(limits, "CHECK_WAIT_S", 0.05)
    release = threading.Event()
    held = threading.Barrier(limits.MAX_CONCURRENT_CHECKS + 1)

    def hold() -> None:
        with limits.checking():
            held.wait()
            release.wait()

    threads = [threading.Thread(target=hold) for _ in range(limits.MAX_CONCURRENT_CHECKS)]
    for thread in threads:
        thread.start()
    held.wait()
    try:
        yield
    finally:
        release.set()
        for thread in threads:
            thread.join()
