"""The contract tab's facts: proxy and implementation, recovered functions, matched source.

The page hands over the code and the proxy its overview read, so the tab costs only the
implementation's code and the upgrade logs (one round trip). The user may point it at a
project's artifacts (matched, then kept in the chain's saved data) and at a signature list.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject

from explorer.chain.abi_input import AbiFunction
from explorer.chain.artifacts import ArtifactError
from explorer.presentation.address_document import AddressFacts
from explorer.presentation.contract_document import contract_document
from explorer.presentation.contract_facts import ContractFacts, load_contract, use_signature_list
from explorer.presentation.document import Document
from explorer.presentation.signature_choice import CHOICE
from explorer.rpc.errors import RpcError
from explorer.rpc.params import BlockSelector
from explorer.services.session import Session
from explorer.viewmodels.address.tool import Tool
from explorer.viewmodels.observable import TypedSignal, qproperty


class ContractInfoViewModel(Tool):
    """Reads what the contract tab shows at the page's block, and again on the user's asking.

    The page awaits `load` in its own task; the user's choices run as the tool's task.

    Signals (besides Tool's: the result is the status line, "" when all is shown):
        facts_changed(ContractFacts): new facts arrived (the document and functions changed).
    """

    facts_changed = TypedSignal[ContractFacts]()

    def __init__(self, session: Session, address: str, parent: QObject | None = None) -> None:
        super().__init__(session, address, parent)
        self._facts: ContractFacts | None = None
        self._artifacts: Path | None = None
        self._read_from: tuple[AddressFacts, BlockSelector] | None = None

    def _get_facts(self) -> ContractFacts | None:
        """Return the facts last read."""
        return self._facts

    facts = qproperty(_get_facts, facts_changed)

    def _get_document(self) -> Document | None:
        """Return the facts as the document the tab shows."""
        if self._facts is None:
            return None
        return contract_document(self._facts, self.session.network.chain_id)

    document = qproperty(_get_document, facts_changed)

    @property
    def functions(self) -> tuple[AbiFunction, ...]:
        """Return the functions a call to the contract is made with (the implementation's first)."""
        return self._facts.call_abi if self._facts else ()

    def _set_status(self, text: str) -> None:
        """Set the status line and tell the view."""
        self._publish(text)

    def choose_artifacts(self, folder: str) -> None:
        """Match a project's artifacts against the code (the tool's task)."""
        self._start(self.match_artifacts(folder))

    def choose_signatures(self, file: str) -> None:
        """Name selectors from a user's list too (the tool's task)."""
        self._start(self.add_signatures(file))

    async def load(self, facts: AddressFacts, block: BlockSelector) -> ContractFacts | None:
        """Read the contract from what the overview read; None when it could not be read."""
        self._read_from = (facts, block)
        self._set_status("Reading the implementation and upgrades…" if facts.proxy else "")
        try:
            found = await load_contract(
                self.session.client, self.address, block, code=facts.code, proxy=facts.proxy,
                proxy_known=True, artifacts=self._artifacts,
            )  # fmt: skip
        except ArtifactError as error:
            self._artifacts = None
            self._set_status(f"The artifacts could not be read: {error}")
            return None
        except RpcError as error:
            self._set_status(f"The contract could not be read: {error.message}")
            return None
        self._facts = found
        self._set_status(self._match_status(found))
        self.facts_changed.emit(found)
        return found

    def _match_status(self, found: ContractFacts) -> str:
        """Say what matching the chosen artifacts gave, or nothing when none were chosen."""
        if self._artifacts is None:
            return ""
        matched = [c for c in (found.own, found.implementation) if c and c.source]
        if not matched:
            return f"No artifact in {self._artifacts} matches this code."
        return ""

    async def match_artifacts(self, folder: str) -> None:
        """Match a project's artifacts (a folder, or a metadata.json) against the code."""
        path = Path(folder).expanduser()
        if not path.exists():
            self._set_status(f"{path} does not exist.")
            return
        self._artifacts = path
        await self.reload()

    async def add_signatures(self, file: str) -> None:
        """Name selectors from a user's list too (for every contract tab of the window)."""
        try:
            found = use_signature_list(Path(file).expanduser())
        except OSError as error:
            self._set_status(f"The signature list could not be read: {error.strerror or error}")
            return
        if CHOICE.remember is not None:  # the app keeps it in its settings
            CHOICE.remember(file)
        problems = f"; {len(found.problems)} line(s) skipped" if found.problems else ""
        await self.reload()
        self._set_status(f"{found.count:,} signature(s) read from {Path(file).name}{problems}.")

    async def reload(self) -> None:
        """Read the contract again from the facts it was last read from."""
        if self._read_from is not None:
            await self.load(*self._read_from)
