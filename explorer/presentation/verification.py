"""What a page says of its verification: a badge, the one mismatch in red, what was not checked.

"Verified: hash, transactions root, receipts root, bound to Bitcoin work (difficulty D)" when
everything checked holds; otherwise the first check that failed, named, in red, and the page's
headline marked unverified. The same fields serve the window, `report` and `verify`.
"""

from __future__ import annotations

from dataclasses import replace

from explorer.chain.blockverify import BlockVerdict, Check, Finding, Outcome
from explorer.presentation import format as fmt
from explorer.presentation.document import Document, Field, Tone

UNVERIFIED = "Unverified"


def _verified_name(finding: Finding, verdict: BlockVerdict) -> str:
    """Return how the badge names a check that passed."""
    if finding.check is Check.BITCOIN_WORK:
        difficulty = f"{verdict.difficulty:,}" if verdict.difficulty is not None else "?"
        return f"bound to Bitcoin work (difficulty {difficulty})"
    if finding.check is Check.PARENT_LINK:
        return f"chained {finding.detail}"
    if finding.check is Check.TRANSACTION:
        return f"transaction ({finding.detail})"
    if finding.check is Check.HASH and verdict.number == 0:
        return f"hash ({finding.detail})"
    return str(finding.check.value)


def badge_text(verdict: BlockVerdict) -> str:
    """Return the one-line verdict: what verified, or the check that failed and why."""
    mismatch = verdict.mismatch
    if mismatch is not None:
        return f"Does not verify — {mismatch.check.value}: {mismatch.detail}"
    passed = [f for f in verdict.findings if f.outcome is Outcome.VERIFIED]
    if not passed or not verdict.verified:
        return "Not verified"
    return "Verified: " + ", ".join(_verified_name(f, verdict) for f in passed)


def _unchecked_text(verdict: BlockVerdict) -> str:
    """Return what was not checked and why, one clause per check."""
    return "; ".join(
        f"{f.check.value} ({f.detail})" for f in verdict.findings if f.outcome is Outcome.UNCHECKED
    )


LABEL = "Verification"
NOT_CHECKED = "Not checked"
CHECKING = "checking what the node sent…"
PENDING_TEXT = "nothing to check yet: a pending transaction is in no block"


def verification_fields(verdict: BlockVerdict | None, waiting: str = CHECKING) -> list[Field]:
    """Return the badge and what was not checked (always both: the page keeps its shape)."""
    if verdict is None:
        return [
            fmt.text_field(LABEL, waiting, Tone.MUTED),
            fmt.text_field(NOT_CHECKED, "—", Tone.MUTED),
        ]
    if verdict.mismatch is not None:
        tone = Tone.BAD
    elif verdict.verified:
        tone = Tone.GOOD
    else:
        tone = Tone.MUTED
    unchecked = _unchecked_text(verdict) or "—"
    return [
        fmt.text_field(LABEL, badge_text(verdict), tone),
        fmt.text_field(NOT_CHECKED, unchecked, Tone.MUTED),
    ]


def unverified_headline(headline: Field, verdict: BlockVerdict) -> Field:
    """Return the headline, marked unverified (in red) when a check failed."""
    mismatch = verdict.mismatch
    if mismatch is None or headline.text.startswith(UNVERIFIED):
        return headline
    text = f"{UNVERIFIED} — {mismatch.check.value} does not match · {headline.text}"
    return replace(headline, text=text, tone=Tone.BAD)


def with_verdict(
    document: Document, verdict: BlockVerdict | None, waiting: str = CHECKING
) -> Document:
    """Return the document with the verification fields first in its first section.

    They replace the ones it had; the headline is marked unverified when a check failed.
    """
    if not document.sections:
        return document
    first, *rest = document.sections
    kept = tuple(f for f in first.fields if f.label not in (LABEL, NOT_CHECKED))
    fields = (*verification_fields(verdict, waiting), *kept)
    headline = (
        document.headline if verdict is None else unverified_headline(document.headline, verdict)
    )
    return replace(document, headline=headline, sections=(replace(first, fields=fields), *rest))
