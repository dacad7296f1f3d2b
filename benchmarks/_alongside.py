"""Real browsers alongside the protocol load: do the protocol clients see the pages a browser shows?

Each browser user (a fresh Playwright context in one Debian chromium, so no cookies or cache are shared) opens the
pages the protocol sessions open, waits until each is drawn (the readiness rule of tests/e2e/pageload.py) and keeps
the text of every heading drawn on it (main area and sidebar) and any exception box. A protocol session opens the
same pages in the same state (no weight moved, no limit: a page such as Export shows what the session chose) at the
same time, and :func:`compare` sets its headings beside the browsers'. A browser costs about 14 CPU-seconds per
session here, so three of them are a witness, not part of the load figures.

Not a benchmark itself (the leading underscore keeps `make bench` from running it); bench_protocol_load.py uses it.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field

from _browser import CHROMIUM, LAUNCH_ARGS, VIEWPORT

#: The protocol steps that open a page, and the page's address.
PAGES = {
    "open Recommend": "",
    "open Frameworks": "frameworks",
    "open Accelerators": "accelerators",
    "open Evidence": "evidence",
    "open Export": "export",
}
TIMEOUT_MS = 180_000


@dataclass
class Seen:
    """What one browser user saw: page step -> headings, and what went wrong."""

    headings: dict[str, list[str]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Witness:
    """The browsers' view and a protocol session's view of the same pages in the same state."""

    browsers: list[Seen]
    protocol: dict[str, list[str]]
    protocol_errors: list[str]


def _plain(text: str) -> str:
    """A heading as shown: markdown escapes, emphasis and code marks, word joiners and extra blanks dropped."""
    text = re.sub(r"\\(.)", r"\1", text.replace("\u2060", ""))
    return " ".join(re.sub(r"[*_`]", "", text).split())


async def _rendered(page: object) -> None:
    from tests.e2e.pageload import RENDERED

    for _ in range(2):  # twice 300 ms apart, so that a late message is not missed
        await page.wait_for_timeout(300)
        await page.wait_for_function(RENDERED, timeout=TIMEOUT_MS)


async def _user(chromium: object, url: str) -> Seen:
    seen = Seen()
    context = await chromium.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    start = time.perf_counter()
    try:
        for step, path in PAGES.items():
            await page.goto(f"{url}/{path}")
            await _rendered(page)
            texts = await page.locator("[data-testid=stHeading]").all_text_contents()
            seen.headings[step] = [_plain(t) for t in texts]
            if await page.locator("[data-testid=stException]").count():
                seen.errors.append(f"{step}: an exception box")
    except Exception as exc:  # a witness reports what failed; it does not stop the load
        seen.errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        seen.seconds = time.perf_counter() - start
        await context.close()
    return seen


async def _protocol_pages(url: str) -> tuple[dict[str, list[str]], list[str]]:
    from _protocol import Session

    session = Session(url)
    headings: dict[str, list[str]] = {}
    errors: list[str] = []
    try:
        await session.connect()
        for step, path in PAGES.items():
            done = await session.rerun(step, page=path)
            headings[step] = done.headings
            errors.extend(f"{step}: {e}" for e in done.errors)
    except Exception as exc:  # a witness reports what failed; it does not stop the load
        errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        await session.close()
    return headings, errors


async def witness(url: str, count: int) -> Witness:
    """`count` browser users at once, in one chromium, each through every page of ``PAGES``, and a protocol
    session through the same pages."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        try:
            *seen, (protocol, errors) = await asyncio.gather(
                *(_user(chromium, url) for _ in range(count)), _protocol_pages(url)
            )
        finally:
            await chromium.close()
    return Witness(list(seen), protocol, errors)


def compare(browsers: list[Seen], protocol: dict[str, list[str]]) -> tuple[int, int, list[str]]:
    """(pages whose headings match, pages compared, the differences) between the browsers and the protocol's
    headings per step (`protocol`: step -> headings a protocol session received)."""
    matched, compared, differences = 0, 0, []
    for index, seen in enumerate(browsers, start=1):
        for step, headings in seen.headings.items():
            if step not in protocol:
                continue
            compared += 1
            # sorted: the sidebar comes first in the page, wherever the script draws it
            expected = sorted(_plain(h) for h in protocol[step])
            headings = sorted(headings)
            if headings == expected:
                matched += 1
            else:
                differences.append(f"browser {index}, {step}: browser {headings[:4]} vs protocol {expected[:4]}")
    return matched, compared, differences
