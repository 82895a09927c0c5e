"""The player/coach loop (`coachloop duel`): adversarial cooperation that cannot approve
broken work.

A fresh player works on the requirements each turn; the orchestrator gathers evidence
in code (tests, coverage, diff, the player's claims against the repository); a coach
(rules, an LLM through the judge's providers, or Claude Code read-only) decides; the
decision is validated and enforced before the orchestrator writes it. Modules:
`orchestrator` (the loop and its outcomes), `files` (coordination files), `schemas`
(JSON Schemas, package data), `tools` (the coach tools), `evidence`, `claims`,
`decision`, `coaches`, `players`, `instructions`, `report`, `deepagents_coach` (the
coach as a deepagents subagent; needs the `deepagents` extra).
"""

from __future__ import annotations

__all__: list[str] = []
