"""What a page says of its verification: a badge, the one mismatch in red, what was not checked.

"Verified: hash, transactions root, receipts root, bound to Bitcoin work (difficulty D)" when
everything checked holds; otherwise the first check that failed, named, in red, and the page's
headline marked unverified. The same fields serve the window, `report` and `verify`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

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


class Waiting(NamedTuple):
    """What the badge says before a verdict: a word for data, words for people."""

    word: str
    text: str


CHECKING = Waiting("checking", "checking what the node sent…")
PENDING = Waiting("in_no_block", "nothing to check yet: a pending transaction is in no block")


def check_key(check: Check) -> str:
    """Return a check's fixed name in data (`transactions_root`)."""
    return check.name.lower()


def verification_fields(verdict: BlockVerdict | None, waiting: Waiting = CHECKING) -> list[Field]:
    """Return the badge and what was not checked (always both: the page keeps its shape).

    In data the badge is a word (verified, mismatch, unverified, or the waiting one) with the
    failed check's name (`mismatch`) or the difficulty bound to Bitcoin work beside it.
    """
    if verdict is None:
        return [
            fmt.status_field(LABEL, waiting.word, waiting.text, Tone.MUTED),
            fmt.text_field(NOT_CHECKED, "—", Tone.MUTED, checks=()),
        ]
    unchecked = [f for f in verdict.findings if f.outcome is Outcome.UNCHECKED]
    not_checked = fmt.text_field(
        NOT_CHECKED,
        _unchecked_text(verdict) or "—",
        Tone.MUTED,
        checks=tuple(check_key(f.check) for f in unchecked),
    )
    mismatch = verdict.mismatch
    if mismatch is not None:
        badge = fmt.status_field(
            LABEL, "mismatch", badge_text(verdict), Tone.BAD, mismatch=check_key(mismatch.check)
        )
    elif verdict.verified:
        difficulty = verdict.difficulty
        badge = fmt.status_field(
            LABEL, "verified", badge_text(verdict), Tone.GOOD, difficulty=difficulty
        )
    else:
        badge = fmt.status_field(LABEL, "unverified", badge_text(verdict), Tone.MUTED)
    return [badge, not_checked]


def unverified_headline(headline: Field, verdict: BlockVerdict) -> Field:
    """Return the headline, marked unverified (in red) when a check failed."""
    mismatch = verdict.mismatch
    if mismatch is None or headline.text.startswith(UNVERIFIED):
        return headline
    text = f"{UNVERIFIED} — {mismatch.check.value} does not match · {headline.text}"
    return replace(headline, text=text, tone=Tone.BAD)


OVERVIEW = "Overview"


def with_verdict(
    document: Document, verdict: BlockVerdict | None, waiting: Waiting = CHECKING
) -> Document:
    """Return the document with the verification fields first in its Overview (else first).

    They replace the ones it had; the headline is marked unverified when a check failed.
    """
    if not document.sections:
        return document
    titles = [section.title for section in document.sections]
    at = titles.index(OVERVIEW) if OVERVIEW in titles else 0
    target = document.sections[at]
    kept = tuple(f for f in target.fields if f.label not in (LABEL, NOT_CHECKED))
    fields = (*verification_fields(verdict, waiting), *kept)
    sections = list(document.sections)
    sections[at] = replace(target, fields=fields)
    headline = (
        document.headline if verdict is None else unverified_headline(document.headline, verdict)
    )
    return replace(document, headline=headline, sections=tuple(sections))
