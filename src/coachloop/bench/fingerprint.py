"""Verdict fingerprints: what the offline judge decided for a row, without its text.

A fingerprint holds everything the offline judge outputs for one row (type, route,
confidence, reason, the problems' kinds, the evidence's counts), the named signals the
trainer reads (`vector.signals`, the sure-deliver flag) and a digest over all of it in
full (quotes, evidence items, problem details, and the words the scorer reads,
`wording.wording`, where the judge has them). Two judges that agree on every
fingerprint produce identical verdicts and identical training examples.

The module imports only APIs that every version of the offline judge has, so a
benchmark script can load it by path next to an older source tree and compare.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from typing import Any

__all__ = ["fingerprint", "fingerprints"]


def fingerprint(row_id: str, item: Any) -> dict[str, Any]:
    """The fingerprint of judging `item` (a `JudgeInput`); see the module docstring."""
    from coachloop.coach.skills import all_skills, detect_skill
    from coachloop.judge.rules import RulesJudge
    from coachloop.judge.rules.classify import classify
    from coachloop.judge.rules.features import Features
    from coachloop.judge.rules.sure import sure_deliver
    from coachloop.judge.rules.text import Message
    from coachloop.judge.rules.vector import signals

    verdict = RulesJudge().judge(item)
    f = Features(Message(item.text))
    skill = detect_skill(
        explicit=item.skill,
        texts=(item.text, item.prompt),
        phase=item.phase,
        skills=all_skills(()),
    )
    outcome = classify(f, item.prompt, skill)
    sure = sure_deliver(f, outcome)
    on = sorted(signals(f, item, outcome))
    try:  # the words the scorer reads (judges since issue 10's wording)
        from coachloop.judge.rules.wording import wording

        said: list[list[str]] | None = [sorted(part) for part in wording(f, item)]
    except ImportError:
        said = None
    ev = verdict.evidence
    full: dict[str, Any] = {
        "verdict": asdict(verdict),
        "outcome": [outcome.type, outcome.confidence, outcome.reason],
        "outcome_problems": [asdict(p) for p in outcome.problems],
        "sure": sure,
        "signals": on,
    }
    if said is not None:
        full["wording"] = said
    digest = hashlib.sha256(
        json.dumps(full, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()
    return {
        "id": row_id,
        "type": verdict.type,
        "route": verdict.route,
        "confidence": verdict.confidence,
        "reason": verdict.reason,
        "rejected": verdict.rejected_completion,
        "problems": [p.kind for p in verdict.problems],
        "evidence": [
            len(ev.tests),
            len(ev.commits),
            len(ev.pull_requests),
            len(ev.paths),
            len(ev.commands),
            len(ev.exit_codes),
            len(ev.successes),
            len(ev.failures),
        ],
        "sure": sure,
        "signals": on,
        "digest": digest[:16],
    }


def fingerprints(rows: Any) -> list[dict[str, Any]]:
    """Fingerprints of `BenchRow`s (anything with `id` and `item`), in order."""
    return [fingerprint(row.id, row.item) for row in rows]
