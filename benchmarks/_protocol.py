"""A Streamlit session without a browser: the websocket protocol with the protobuf messages the streamlit package
ships, as the browser's frontend speaks it (``/_stcore/stream``, subprotocol ``streamlit``).

The browser sends a ``BackMsg`` whose ``rerun_script`` carries the client state (query string, page, widget
values, the fragment a widget belongs to); the server answers with ``ForwardMsg`` messages (``new_session``, the
page list in ``navigation``, one ``delta`` per element) up to ``script_finished``. A step's time here runs from
sending the request to the ``script_finished`` of its last run: on loopback that is the server's time for the step,
without a browser's layout and painting. Widgets are found by the key the app gives them (an element id ends with it).

Not a benchmark itself (the leading underscore keeps `make bench` from running it); bench_protocol_load.py uses it.
"""

from __future__ import annotations

import asyncio
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

STEP_TIMEOUT_S = 180.0
_FINISHED = {
    ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
    ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
}
# A run that stopped for another (``st.rerun()``, as the must-have box does after a control changed the page): the
# step goes on until the run that follows finishes, as the browser's page stays "running".
_RERUN_FOLLOWS = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN


@dataclass
class Widget:
    """A widget the server drew: its element id, the fragment it belongs to (empty: the page) and its element."""

    id: str
    fragment_id: str
    element: Any


@dataclass
class Step:
    """One step's outcome: seconds from request to ``script_finished``, and what went wrong (empty: nothing)."""

    name: str
    seconds: float
    errors: list[str] = field(default_factory=list)
    elements: int = 0  # elements the server sent (a step that draws nothing did not happen)
    headings: list[str] = field(default_factory=list)  # the text of every heading the run drew, in order
    started: float = float("nan")  # time.perf_counter() when the request was sent


class Session:
    """One user's websocket session: connect, rerun a page or a fragment with widget values, fetch a download.

    Parameters
    ----------
    url
        The app's address (``http://127.0.0.1:8501``), a server or the proxy in front of several.
    """

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self.cookie = ""
        self.pages: dict[str, str] = {}  # url path -> page script hash
        self.page_hash = ""
        self.widgets: dict[str, Widget] = {}  # the app's key -> widget
        self.values: dict[str, Any] = {}  # widget id -> WidgetState (what the browser keeps sending)
        self._ws: Any = None

    async def connect(self) -> None:
        """Fetch the page (so a proxy sets its routing cookie, as for a browser), then open the websocket."""
        self.cookie = await asyncio.to_thread(self._route_cookie)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        ws_url = "ws" + self.url.removeprefix("http") + "/_stcore/stream"
        self._ws = await websockets.connect(
            ws_url, subprotocols=["streamlit"], additional_headers=headers, max_size=None, open_timeout=60
        )

    def _route_cookie(self) -> str:
        with urllib.request.urlopen(self.url + "/", timeout=60) as reply:
            cookies = reply.headers.get_all("Set-Cookie") or []
        return "; ".join(c.split(";", 1)[0] for c in cookies)

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()

    async def rerun(self, name: str, page: str | None = None, fragment_id: str = "") -> Step:
        """Ask for a run of `page` (a url path; default: the page shown) or of one fragment, and wait for its end."""
        if page is not None:
            if page and page not in self.pages:
                return Step(name, float("nan"), [f"no page `{page}` (pages: {sorted(self.pages)})"])
            self.page_hash = self.pages.get(page, "")
            self.widgets.clear()
            self.values.clear()
        message = BackMsg()
        state = message.rerun_script
        state.query_string = ""
        state.page_script_hash = self.page_hash
        state.page_name = "" if page is None else page
        state.context_info.timezone = "UTC"
        state.context_info.locale = "en-US"
        state.context_info.url = f"{self.url}/{page or ''}"
        if fragment_id:
            state.fragment_id = fragment_id
        for value in self.values.values():
            state.widget_states.widgets.add().CopyFrom(value)
        start = time.perf_counter()
        await self._ws.send(message.SerializeToString())
        errors, elements, headings = await self._until_finished()
        if not elements and not errors:
            errors.append("the server drew nothing")
        return Step(name, time.perf_counter() - start, errors, elements, headings, started=start)

    async def _until_finished(self) -> tuple[list[str], int, list[str]]:
        errors: list[str] = []
        headings: list[str] = []
        elements = 0
        while True:
            data = await asyncio.wait_for(self._ws.recv(), STEP_TIMEOUT_S)
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "script_finished":
                if msg.script_finished == _RERUN_FOLLOWS:
                    continue
                if msg.script_finished not in _FINISHED:
                    errors.append(f"script finished with status {msg.script_finished}")
                return errors, elements, headings
            if kind == "navigation":
                self.pages = {p.url_pathname: p.page_script_hash for p in msg.navigation.app_pages}
                self.page_hash = msg.navigation.page_script_hash or self.page_hash
            elif kind == "new_session":
                self.page_hash = msg.new_session.page_script_hash or self.page_hash
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                elements += 1
                element = msg.delta.new_element
                if element.WhichOneof("type") == "exception":
                    errors.append(f"exception: {element.exception.type}: {element.exception.message[:200]}")
                elif element.WhichOneof("type") == "heading":
                    headings.append(element.heading.body)
                self._remember(element, msg.delta.fragment_id)
            elif kind == "delta" and msg.delta.WhichOneof("type") == "add_block":
                # a box with a key (st.expander(key=...)) is a widget too: its state says whether it is open
                self._remember(msg.delta.add_block, msg.delta.fragment_id)

    def _remember(self, element: Any, fragment_id: str) -> None:
        kind = element.WhichOneof("type")
        if kind is None:
            return
        inner = getattr(element, kind)
        widget_id = getattr(inner, "id", "")
        if isinstance(widget_id, str) and widget_id.startswith("$$ID-"):
            key = widget_id.split("-", 2)[-1]
            self.widgets[key] = Widget(widget_id, fragment_id, inner)

    async def set_slider(self, name: str, key: str, value: float) -> Step:
        """Move the slider `key` to `value` (a fragment's slider reruns its fragment alone, as in the browser)."""
        widget = self._widget(key)
        state = self._state(widget)
        state.double_array_value.data[:] = [float(value)]
        return await self.rerun(name, fragment_id=widget.fragment_id)

    async def open_box(self, name: str, key: str) -> Step:
        """Open the expander `key` (one that draws its content only when open reruns to draw it)."""
        widget = self._widget(key)
        self._state(widget).bool_value = True
        return await self.rerun(name, fragment_id=widget.fragment_id)

    async def set_text(self, name: str, key: str, text: str) -> Step:
        """Type `text` into the text input `key` and press Enter."""
        widget = self._widget(key)
        self._state(widget).string_value = text
        return await self.rerun(name, fragment_id=widget.fragment_id)

    async def submit_form(self, name: str, fields: dict[str, str], button: str) -> Step:
        """Type each of `fields` (text input key -> text) and press the form's submit button `button`: the form's
        values travel with the button's trigger, as a browser sends them."""
        for key, text in fields.items():
            self._state(self._widget(key)).string_value = text
        widget = self._widget(button)
        self._state(widget).trigger_value = True
        step = await self.rerun(name, fragment_id=widget.fragment_id)
        self.values.pop(widget.id, None)  # a trigger is sent once, as a browser does
        return step

    def _widget(self, key: str) -> Widget:
        if key not in self.widgets:
            raise KeyError(f"no widget with key {key!r} on this page (seen: {sorted(self.widgets)[:20]})")
        return self.widgets[key]

    def _state(self, widget: Widget) -> Any:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        state = WidgetState()
        state.id = widget.id
        self.values[widget.id] = state
        return state

    async def download(self, name: str, key: str) -> Step:
        """Fetch the file of the download button `key` (its ``on_click="ignore"``: no rerun, only the request)."""
        widget = self._widget(key)
        start = time.perf_counter()
        errors: list[str] = []
        try:
            size = await asyncio.to_thread(self._fetch, widget.element.url)
            if size == 0:
                errors.append(f"{key}: empty download")
        except OSError as exc:
            errors.append(f"{key}: {exc}")
        return Step(name, time.perf_counter() - start, errors, started=start)

    def _fetch(self, path: str) -> int:
        request = urllib.request.Request(self.url + path, headers={"Cookie": self.cookie} if self.cookie else {})
        with urllib.request.urlopen(request, timeout=STEP_TIMEOUT_S) as reply:
            return len(reply.read())
