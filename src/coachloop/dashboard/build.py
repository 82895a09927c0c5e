"""Stored records to what the dashboard shows, with every text redacted on the way.

The one redaction point of the dashboard: `Redactor` applies `coachloop.redaction.redact`
(every catalogued secret format) and hides the literal secrets the server knows (its own
token). Nothing reaches a template without passing through it.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from coachloop.dashboard.views import (
    Delivery,
    Folded,
    SessionRow,
    TimelineItem,
    VerdictView,
    display_status,
    fold,
    outcome,
)
from coachloop.redaction import REDACTED, redact

_EVIDENCE_LABELS = (
    ("tests", "tests"),
    ("commits", "commits"),
    ("pull_requests", "pull requests"),
    ("paths", "paths"),
    ("commands", "commands"),
    ("exit_codes", "exit codes"),
    ("successes", "successes"),
    ("failures", "failures"),
)
MIN_SECRET_CHARS = 8  # a shorter "secret" would redact ordinary words
CACHE_ENTRIES = 4096  # coaching texts, reasons and delivered copies of a message repeat
CACHE_MAX_CHARS = 4096  # so the cache holds at most ~16 MB


class Redactor:
    """`coachloop.redaction.redact` plus literal `secrets` (each replaced wherever it
    appears). Results for short texts are remembered (same text, same result)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self.secrets = tuple(s for s in secrets if len(s) >= MIN_SECRET_CHARS)
        self._cached = functools.lru_cache(maxsize=CACHE_ENTRIES)(self._redact)

    def _redact(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return redact(text)

    def __call__(self, text: str | None) -> str:
        if not text:
            return ""
        return self._cached(text) if len(text) <= CACHE_MAX_CHARS else self._redact(text)


def dom_id(session_id: str) -> str:
    """A stable HTML id for a session's row (session ids may hold any character)."""
    return "s-" + hashlib.blake2b(session_id.encode("utf-8", "replace"), digest_size=8).hexdigest()


def session_row(
    state: Mapping[str, Any],
    *,
    cap: int,
    last_stop: Mapping[str, Any] | None,
    redact: Redactor,
) -> SessionRow:
    """A row from a session's stored state (its JSON dict) and its last stop record
    (a dict with `decision`, `why`, `verdict_type` and `reason`, or None)."""
    why = str(last_stop.get("why") or "") if last_stop else ""
    decision = last_stop.get("decision") if last_stop else None
    return SessionRow(
        session_id=str(state.get("session_id", "")),
        agent=redact(str(state.get("agent") or "")),
        project=redact(str(state.get("project") or "")),
        status=display_status(str(state.get("status") or ""), why),
        continues=int(state.get("continues") or 0),
        cap=cap,
        stops=int(state.get("stops") or 0),
        verdict_type=(str(last_stop.get("verdict_type") or "") or None) if last_stop else None,
        outcome=outcome(decision, why) if last_stop else None,
        reason=redact(str(last_stop.get("reason") or "")) if last_stop else "",
        created_at=float(state.get("created_at") or 0.0),
        updated_at=float(state.get("updated_at") or 0.0),
        flags=tuple(redact(str(f)) for f in state.get("flags") or ()),
    )


def _evidence(raw: Mapping[str, Any], redact: Redactor) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for key, label in _EVIDENCE_LABELS:
        values = raw.get(key) or ()
        if not values:
            continue
        if key == "tests":
            shown = [
                f"{t.get('runner', '?')}: {t.get('passed', 0)} passed, "
                f"{t.get('failed', 0)} failed, {t.get('skipped', 0)} skipped"
                for t in values
                if isinstance(t, Mapping)
            ]
        else:
            shown = [str(v) for v in values]
        out.append((label, redact(", ".join(shown))))
    return tuple(out)


def verdict_view(raw: Mapping[str, Any], redact: Redactor) -> VerdictView:
    """A stored verdict dict (`records.verdict_dict`) as shown."""
    try:
        confidence = float(raw.get("confidence") or 0.0)
    except (TypeError, ValueError):
        confidence = 0.0
    evidence = raw.get("evidence")
    problems = [p for p in raw.get("problems") or () if isinstance(p, Mapping)]
    return VerdictView(
        type=str(raw.get("type") or "?"),
        route=str(raw.get("route") or "?"),
        confidence=confidence,
        reason=redact(str(raw.get("reason") or "")),
        source=str(raw.get("source") or ""),
        rejected_completion=bool(raw.get("rejected_completion")),
        evidence=_evidence(evidence, redact) if isinstance(evidence, Mapping) else (),
        problems=tuple(
            (str(p.get("kind") or ""), redact(str(p.get("detail") or "")), redact(p.get("quote")))
            for p in problems
        ),
    )


def timeline_item(
    rec: Mapping[str, Any],
    redact: Redactor,
    deliveries: tuple[Delivery, ...] = (),
    *,
    full: bool = False,
) -> TimelineItem:
    """A timeline item from a stored record dict (`EventRecord.to_dict` with its id).
    Long texts are folded (head and tail) unless `full`."""

    def shown(text: Any) -> Folded:
        clean = redact(str(text or ""))
        return Folded(clean.strip()) if full else fold(clean)

    verdict = rec.get("verdict")
    decision = rec.get("decision")
    why = redact(str(rec.get("why") or ""))
    kind = str(rec.get("kind") or "")
    return TimelineItem(
        id=int(rec.get("id") or 0),
        session_id=str(rec.get("session_id") or ""),
        kind=kind,
        ts=float(rec.get("ts") or 0.0),
        text=shown(rec.get("text")),
        message=shown(rec.get("message")),
        job_id=rec.get("job_id"),
        source=str(rec.get("source") or ""),
        verdict=verdict_view(verdict, redact) if isinstance(verdict, Mapping) else None,
        decision=decision,
        outcome=outcome(decision, str(rec.get("why") or "")) if kind == "stop" else None,
        why=why,
        notices=tuple(redact(str(n)) for n in rec.get("notices") or ()),
        deliveries=deliveries,
    )
