"""A tool page (Tools menu): inputs, results as they change, the node asked on request."""

from __future__ import annotations

import asyncio
import re

from PySide6.QtCore import QObject

from explorer.chain.tools import HashInput, amount_query, keccak_hex, keccak_input
from explorer.presentation.document import Tone
from explorer.presentation.tool_results import TOOLS, Result, ResultLine, ToolKind, ToolSpec
from explorer.rpc.errors import RpcError
from explorer.services.routes import Route, tool_route
from explorer.services.session import Session
from explorer.viewmodels.observable import TypedSignal, qproperty

NODE_HASH = "web3_sha3 (the node)"
_SIGNATURE = re.compile(r"(?:function |event )?[A-Za-z_$][\w$]*\s*\(.*\)\s*", re.S)
_COMMANDS: dict[str, ToolKind] = {
    "keccak": ToolKind.KECCAK,
    "sha3": ToolKind.KECCAK,
    "keccak256": ToolKind.KECCAK,
    "checksum": ToolKind.CHECKSUM,
    "encode": ToolKind.ABI_ENCODE,
    "decode": ToolKind.ABI_DECODE,
    "selector": ToolKind.SELECTOR,
    "topic": ToolKind.SELECTOR,
    "units": ToolKind.UNITS,
}


def tool_route_for(text: str) -> Route | None:
    """Return the tool a search text asks for, or None for a lookup on the chain.

    `keccak hello`, `checksum 0x…`, `selector 0x…`, `decode 0x…`, `encode f(uint256)`,
    an amount with its unit (`1.5 rbtc`, `30 gwei`) or a signature (`transfer(address,uint256)`)
    open their tool; nothing a block, hash, address or name search accepts is taken.
    """
    stripped = text.strip()
    word, _, rest = stripped.partition(" ")
    kind = _COMMANDS.get(word.lower())
    if kind is not None:
        return tool_route(kind.value, rest.strip())
    if amount_query(stripped) is not None:
        return tool_route(ToolKind.UNITS.value, stripped)
    if _SIGNATURE.fullmatch(stripped):
        return tool_route(ToolKind.SELECTOR.value, stripped)
    return None


def tool_search_text(kind: ToolKind, text: str) -> str:
    """Return what typed in the search bar opens a tool with text (`keccak hello`)."""
    command = next(word for word, named in _COMMANDS.items() if named is kind)
    return f"{command} {text}".strip()


def tool_of(route: Route) -> tuple[ToolKind, str]:
    """Return a tool route's tool and the text given to it (`tool/units:1.5 rbtc`)."""
    name, _, text = route.target.partition(":")
    try:
        return ToolKind(name), text
    except ValueError:
        return ToolKind.KECCAK, route.target


class ToolViewModel(QObject):
    """One tool: its inputs' values and the result lines for them.

    The Keccak tool also asks the node (web3_sha3) on request and compares: a different
    answer is the node's fault. Every other tool computes locally, costing no request.

    Signals:
        result_changed(): the result lines changed.
    """

    result_changed = TypedSignal[()]()

    def __init__(
        self, kind: ToolKind, session: Session | None, text: str = "", parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.kind = kind
        self.spec: ToolSpec = TOOLS[kind]
        self.session = session
        self.values: dict[str, str] = {
            tool_input.key: tool_input.choices[0] if tool_input.choices else ""
            for tool_input in self.spec.inputs
        }
        self._node_line: ResultLine | None = None
        self._task: asyncio.Task[None] | None = None
        self._result: Result = ()
        self._take(text)
        self._recompute()
        if text and self.can_ask_node:
            self.ask_node()

    def _get_result(self) -> Result:
        return self._result

    result = qproperty(_get_result, result_changed)

    @property
    def title(self) -> str:
        """Return the tool's title."""
        return self.spec.title

    @property
    def can_ask_node(self) -> bool:
        """Tell whether this tool compares with the node (Keccak, with a session)."""
        return self.kind is ToolKind.KECCAK and self.session is not None

    def _take(self, text: str) -> None:
        """Put text from the search box into the first input (an amount and its unit apart)."""
        if not text:
            return
        first = self.spec.inputs[0].key
        parsed = amount_query(text) if self.kind is ToolKind.UNITS else None
        if parsed is not None:
            self.values["amount"], self.values["unit"] = parsed
        else:
            self.values[first] = text

    def draft(self) -> dict[str, str]:
        """Return what the user typed (kept when the page is rebuilt for another network)."""
        return dict(self.values)

    def restore(self, values: dict[str, str]) -> None:
        """Take back what the user typed on the page this one replaces."""
        self.values.update((key, text) for key, text in values.items() if key in self.values)
        self._node_line = None
        self._recompute()

    def set_value(self, key: str, text: str) -> None:
        """Change one input; the local result follows at once, the node's answer is dropped."""
        if self.values.get(key) == text:
            return
        self.values[key] = text
        self._node_line = None
        if self._task is not None:
            self._task.cancel()
        self._recompute()

    def _recompute(self) -> None:
        """Recompute the result lines (local; no request)."""
        chain_id = self.session.network.chain_id if self.session is not None else None
        lines = self.spec.compute(self.values, chain_id)
        if self.can_ask_node and lines and lines[-1].tone is not Tone.BAD:
            lines = (*lines, self._node_line or ResultLine(NODE_HASH, "press Compare"))
        self._result = lines
        self.result_changed.emit()

    def ask_node(self) -> None:
        """Ask the node for the same hash (one web3_sha3 request) and compare."""
        if not self.can_ask_node:
            return
        try:
            data, _ = keccak_input(self.values["input"], HashInput(self.values["mode"]))
        except ValueError:
            return
        if self._task is not None:
            self._task.cancel()
        self._node_line = ResultLine(NODE_HASH, "asking…", Tone.WAITING)
        self._recompute()
        self._task = asyncio.ensure_future(self._compare(data))

    async def _compare(self, data: bytes) -> None:
        """Compare the node's keccak with the local one."""
        assert self.session is not None
        local = keccak_hex(data)
        try:
            remote = await self.session.client.sha3(data)
        except RpcError as error:
            self._node_line = ResultLine(NODE_HASH, f"failed: {error.kind.said} ({error})")
        else:
            if remote == local:
                self._node_line = ResultLine(NODE_HASH, f"{remote} — the same", Tone.GOOD)
            else:
                self._node_line = ResultLine(
                    NODE_HASH, f"{remote} — DIFFERENT: the node computed a wrong hash", Tone.BAD
                )
        self._recompute()

    def dispose(self) -> None:
        """Stop asking the node."""
        if self._task is not None:
            self._task.cancel()
