"""JSON is data: a command's `--format json` checked against its schema in docs/schemas/.

For any command with JSON (docs/report-json.md says how to add one):

    page = command_json("report", "report", "100", "--endpoint", devnet.url())
    entries = command_json("history", "history", account, "--endpoint", url, chain_id=31)

runs `explorer ARGS --format json` as a process, checks its exit code (0 unless `code=`),
that the key is nowhere in its output, parses stdout and validates it against
docs/schemas/<schema>.json; the data is returned for the test's own assertions. Addresses
(format `rsk-address`) must carry the EIP-1191 checksum of `chain_id` (a page's own
`chain_id` when not given; EIP-55 when None). `schema_errors` says why data breaks a schema,
for a test that feeds it a shape it must refuse.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, ValidationError
from referencing import Registry, Resource

from explorer.chain.checksum import to_checksum_address
from tests.helpers.cli import explorer

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schemas"
ADDRESS_FORMAT = "rsk-address"


def schema_names() -> list[str]:
    """Return the name of every schema (a file of docs/schemas without .json)."""
    return sorted(path.stem for path in SCHEMAS.glob("*.json"))


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """Return docs/schemas/<name>.json."""
    schema: dict[str, Any] = json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))
    return schema


@functools.cache
def registry() -> Registry[Any]:
    """Return every schema by its $id, so that `common.json#/$defs/…` resolves offline."""
    resources = [Resource.from_contents(load_schema(name)) for name in schema_names()]
    return Registry().with_resources((str(r.id()), r) for r in resources)


def address_checker(chain_id: int | None) -> FormatChecker:
    """Return a format checker whose rsk-address is the checksum of chain_id (EIP-55: None)."""

    def checksummed(value: object) -> bool:
        if not isinstance(value, str) or len(value) != 42:
            return True  # the pattern beside the format says what is wrong
        return to_checksum_address(value.lower(), chain_id) == value

    checker = FormatChecker()
    checker.checks(ADDRESS_FORMAT)(checksummed)
    return checker


def schema_errors(data: Any, schema: str, chain_id: int | None = None) -> list[str]:
    """Return why data breaks docs/schemas/<schema>.json, one line each (none: it follows it).

    chain_id: the chain whose checksum addresses carry; a page's own chain_id when None.
    """
    if chain_id is None and isinstance(data, dict):
        chain_id = data.get("chain_id")
    validator = Draft202012Validator(
        load_schema(schema), registry=registry(), format_checker=address_checker(chain_id)
    )
    errors = sorted(validator.iter_errors(data), key=lambda error: list(error.absolute_path))
    return [_reason(error) for error in errors]


def _reason(error: ValidationError) -> str:
    """Return `path: message`; for an anyOf, the reason of the alternative that got furthest."""
    if error.context:
        error = max(error.context, key=lambda sub: len(sub.absolute_path))
    return f"{error.json_path}: {error.message[:300]}"


def assert_follows(data: Any, schema: str, chain_id: int | None = None) -> None:
    """Fail with every reason when data breaks the schema."""
    errors = schema_errors(data, schema, chain_id)
    assert not errors, f"{schema}.json refuses the output:\n" + "\n".join(errors[:20])


def command_json(
    schema: str, *args: str, chain_id: int | None = None, code: int = 0, key: str = ""
) -> Any:
    """Run `explorer ARGS --format json`, check its exit code and its schema; return the data.

    key: a secret that must appear in neither output stream (the devnet's API key).
    """
    arguments = [*args] if "--format" in args else [*args, "--format", "json"]
    done = explorer(*arguments)
    assert done.returncode == code, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    if key:
        assert key not in done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert_follows(data, schema, chain_id)
    return data


def fields_of(page: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Return a page's fields by `section.key` (`overview.gas_used`), the first of each."""
    found: dict[str, dict[str, Any]] = {}
    for section in page["sections"]:
        for field in section["fields"]:
            found.setdefault(f"{section['key']}.{field['key']}", field)
    return found
