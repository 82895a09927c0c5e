"""The player/coach loop (`coachloop duel`): adversarial cooperation that cannot approve
broken work.

A fresh player works on the requirements each turn; the orchestrator gathers evidence
in code (tests, coverage, diff, the player's claims against the repository); a coach
(rules, an LLM through the judge's providers, or Claude Code read-only) decides; the
decision is validated and enforced before the orchestrator writes it. Modules:
`orchestrator` (the loop and its outcomes), `files` (coordination files), `schemas`
(JSON Schemas, package data), `tools` (the coach tools), `evidence`, `claims`,
`decision`, `coaches`, `players`, `instructions`, `report`, `deepagents_coach` (the
coach as a deepagents subagent; needs the `deepagents` extra). What keeps the player
from gaming the evidence: `workdir` (the workspace the orchestrator owns), `cleanrun`
and `runreport` (tests run in a clean process, read from the runner's own report),
`baseline`, `testsource` and `pristine` (the suite before turn 1 is the contract; its
failing tests re-run from the original files), `reach` (what lies outside the
workspace), `findings` (what the requirements may ask for).
"""

from __future__ import annotations

__all__: list[str] = []
