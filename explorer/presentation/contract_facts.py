"""What the contract tab and `explorer contract` know of a contract, and how it is read.

At a block: the code (usually already read by the page), the proxy it is and what it
delegates to, the implementation's code, the upgrade history, the functions of both recovered
from the code (evmole, off the event loop, remembered by code hash), and the source matched
from a project's artifacts or kept from an earlier match.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from eth_hash.auto import keccak

from explorer.chain.abi_input import AbiFunction, AbiInputError, parse_abi
from explorer.chain.code_metadata import CodeMetadata, read_metadata
from explorer.chain.recovered import (
    RecoveredFunction,
    RecoveryError,
    analyse_code,
    name_functions,
)
from explorer.chain.signature_file import SignatureList, parse_signature_list
from explorer.chain.signatures import Param, Signature, SignatureTable
from explorer.presentation.signature_choice import CHOICE
from explorer.rpc.params import BlockSelector
from explorer.rpc.wrappers import TypedCalls
from explorer.services.artifact_files import (
    ArtifactSet,
    SourceMatch,
    keep_match,
    kept_match,
    match_set,
    read_folder,
)
from explorer.services.proxies import ProxyInfo, Upgrade, detect_proxy, history_or_reason, since

log = logging.getLogger(__name__)

RECOVERED_KEPT = 64  # codes whose recovered functions stay in memory
#: The user's own signature list (the contract tab's choice), for every contract read here.
USER_TABLES: list[SignatureTable] = []


def use_signature_list(path: Path) -> SignatureList:
    """Read a user's signature list and name selectors from it from now on (OSError: unread)."""
    found = parse_signature_list(path.read_text(encoding="utf-8", errors="replace"))
    USER_TABLES[:] = [found.table]
    CHOICE.unread = None  # this choice replaces the earlier one
    return found


def user_tables() -> tuple[SignatureTable, ...]:
    """Return the user's signature tables, reading first the list chosen in an earlier session."""
    unread = CHOICE.unread
    if unread is not None:
        CHOICE.unread = None
        try:
            use_signature_list(unread)
        except OSError as error:  # moved or deleted since: said in the log, the choice kept
            log.warning("the signature list %s could not be read: %s", unread, error.strerror)
    return tuple(USER_TABLES)


@dataclass(frozen=True)
class CodeFacts:
    """One piece of code: its bytes, CBOR metadata, recovered functions and matched source."""

    address: str
    code: bytes
    metadata: CodeMetadata | None
    functions: tuple[RecoveredFunction, ...]
    source: SourceMatch | None = None
    note: str = ""  # why the functions could not be recovered

    @property
    def abi_functions(self) -> tuple[AbiFunction, ...]:
        """Return the functions to call and decode with: the source's ABI, else the recovered."""
        if self.source is not None and (functions := source_functions(self.source)):
            return functions
        return tuple(f.abi_function() for f in self.functions)


def abi_table(functions: Sequence[AbiFunction]) -> SignatureTable:
    """Return ABI functions as a signature table keyed by the selectors the code answers."""
    index: dict[bytes, tuple[Signature, ...]] = {}
    for function in functions:
        params = tuple(Param(p.name, p.type) for p in function.inputs)
        signature = Signature("function", function.name, params)
        index[function.selector] = (*index.get(function.selector, ()), signature)
    return SignatureTable(index, {})


def source_functions(found: SourceMatch) -> tuple[AbiFunction, ...]:
    """Return a matched artifact's functions (none when its ABI does not read)."""
    try:
        return parse_abi(json.dumps(list(found.artifact.abi)))
    except AbiInputError:
        return ()


@dataclass(frozen=True)
class ContractFacts:
    """A contract at a block: its own code, the proxy it is, the implementation behind it."""

    block: BlockSelector
    own: CodeFacts
    proxy: ProxyInfo | None = None
    implementation: CodeFacts | None = None
    upgrades: tuple[Upgrade, ...] = ()
    upgrades_note: str = ""
    problems: tuple[str, ...] = field(default_factory=tuple)  # artifact files skipped

    @property
    def address(self) -> str:
        """Return the contract's address."""
        return self.own.address

    @property
    def since(self) -> Upgrade | None:
        """Return the upgrade that set the current implementation, when logged."""
        return since(self.proxy, self.upgrades) if self.proxy else None

    @property
    def call_abi(self) -> tuple[AbiFunction, ...]:
        """Return the ABI a call is decoded with: the implementation's, then its own."""
        behind = self.implementation.abi_functions if self.implementation else ()
        return (*behind, *self.own.abi_functions)


_analysed: OrderedDict[bytes, tuple[RecoveredFunction, ...]] = OrderedDict()


async def recovered(
    code: bytes, tables: Sequence[SignatureTable] = ()
) -> tuple[RecoveredFunction, ...]:
    """Return code's functions, analysed off the event loop once per code, named from tables."""
    key = keccak(bytes(code))
    if (known := _analysed.get(key)) is None:
        known = await asyncio.to_thread(analyse_code, code)
        _analysed[key] = known
        while len(_analysed) > RECOVERED_KEPT:
            _analysed.popitem(last=False)
    _analysed.move_to_end(key)
    return name_functions(known, tables)


async def code_facts(
    client: TypedCalls,
    address: str,
    code: bytes,
    tables: Sequence[SignatureTable] = (),
    artifacts: ArtifactSet | None = None,
) -> CodeFacts:
    """Analyse one piece of code; match it against artifacts (kept when it matches)."""
    source = await asyncio.to_thread(match_set, artifacts, code) if artifacts else None
    if source is not None:
        keep_match(client, address, source, code)
    else:
        source = await kept_match(client, address, code)
    named_by = (abi_table(source_functions(source)), *tables) if source else tuple(tables)
    note = ""
    try:
        functions = await recovered(code, (*named_by, *user_tables()))
    except RecoveryError as error:
        functions, note = (), str(error)
    return CodeFacts(address, code, read_metadata(code), functions, source, note)


async def load_contract(
    client: TypedCalls,
    address: str,
    block: BlockSelector,
    *,
    code: bytes | None = None,
    proxy: ProxyInfo | None = None,
    proxy_known: bool = False,
    tables: Sequence[SignatureTable] = (),
    artifacts: Path | None = None,
) -> ContractFacts:
    """Read a contract at a block: proxy, implementation, upgrades, functions, source.

    The page passes the code and the proxy it already read (`proxy_known`), so they are not
    read twice.
    """
    if code is None:
        code = await client.get_code(address, block)
    found = await asyncio.to_thread(read_folder, artifacts) if artifacts else None
    if not proxy_known:
        proxy = await detect_proxy(client, address, code, block)
    implementation = proxy.implementation if proxy else None
    own, behind, (upgrades, note) = await asyncio.gather(
        code_facts(client, address, code, tables, found),
        _behind(client, implementation, block, tables, found),
        history_or_reason(client, proxy, address, block) if proxy else _no_history(),
    )
    problems = found.problems if found else ()
    return ContractFacts(block, own, proxy, behind, upgrades, note, problems)


async def _behind(
    client: TypedCalls,
    implementation: str | None,
    block: BlockSelector,
    tables: Sequence[SignatureTable],
    found: ArtifactSet | None,
) -> CodeFacts | None:
    """Read and analyse the implementation's code, if there is one."""
    if implementation is None:
        return None
    code = await client.get_code(implementation, block)
    return await code_facts(client, implementation, code, tables, found)


async def _no_history() -> tuple[tuple[Upgrade, ...], str]:
    """Return no upgrades (not a proxy)."""
    return (), ""
