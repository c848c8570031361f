"""Where saved data lives: a file per chain, or per chain and endpoint, in a private folder."""

from __future__ import annotations

import asyncio
from pathlib import Path

from explorer.rpc.endpoint import Endpoint
from explorer.saved.directory import CacheDirectory
from explorer.saved.schema import Row
from explorer.saved.store import ChainIdentity

CHAIN = ChainIdentity(31, "0x" + "ab" * 32)
ONE = Endpoint.parse("https://one.example.org/v2/key-one")
TWO = Endpoint.parse("https://two.example.org/v2/key-two")


def test_a_chain_can_keep_a_file_per_endpoint_and_clear_them_all(tmp_path: Path) -> None:
    """Two endpoints' scopes name two files; what one keeps the other does not read."""

    async def scenario() -> tuple[list[str], bytes | None, bytes | None, int]:
        directory = CacheDirectory(tmp_path)
        try:
            scopes = [await directory.endpoint_scope(ONE), await directory.endpoint_scope(TWO)]
            assert scopes[0] == await directory.endpoint_scope(ONE)  # stable
            first, second = (directory.store(CHAIN, scope) for scope in scopes)
            first.put([Row("answer", 5, None, b'{"result":"0x1"}')])
            await first.flush()
            kept, other = await first.get("answer"), await second.get("answer")
            await second.flush()
            cleared = await directory.clear_chain(31)
            return scopes, kept, other, cleared
        finally:
            await directory.aclose()

    scopes, kept, other, cleared = asyncio.run(scenario())
    assert scopes[0] != scopes[1]
    assert (kept, other) == (b'{"result":"0x1"}', None)
    names = sorted(path.name for path in tmp_path.glob("chain-31-*.sqlite3"))
    assert names == sorted(CHAIN.file_name(scope) for scope in scopes)
    assert cleared == 2
