"""Workflow skills as data, and their detection from text or workflow phase."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from coachloop.config import SkillSpec

BUILTIN_SKILLS: tuple[SkillSpec, ...] = (
    SkillSpec(
        name="/do-plan",
        phase="plan",
        evidence_hint="the path of the finished plan document, with all its required sections",
        requires=("paths", "plan", "commit"),
    ),
    SkillSpec(
        name="/do-build",
        phase="build",
        evidence_hint=(
            "the test run's output with its pass/fail counts, the commit hashes and the PR link"
        ),
        requires=("tests",),
    ),
    SkillSpec(
        name="/do-test",
        phase="test",
        evidence_hint="the test output with pass/fail counts (and coverage when it was asked for)",
        requires=("tests",),
    ),
    SkillSpec(
        name="/do-docs",
        phase="document",
        evidence_hint="the paths of the created or updated documents and the index entry",
        requires=("paths", "commit", "pr"),
    ),
)

_TRIGGER = re.compile(r"(?<![\w/])(/[a-z][\w-]*)", re.IGNORECASE)


def all_skills(extra: Iterable[SkillSpec] = ()) -> tuple[SkillSpec, ...]:
    """Built-in skills followed by user-defined ones; a user skill overrides its namesake."""
    extra = tuple(extra)
    if not extra:
        return BUILTIN_SKILLS
    merged = {s.name: s for s in BUILTIN_SKILLS}
    merged.update({s.name: s for s in extra})
    return tuple(merged.values())


def _triggers(text: str) -> Iterator[str]:
    """The triggers `_TRIGGER.finditer` finds, in order: every match opens with "/", so
    only those positions are tried."""
    end, at = 0, text.find("/")
    while at != -1:
        if at >= end:
            match = _TRIGGER.match(text, at)
            if match:
                end = match.end()
                yield match.group(1)
        at = text.find("/", at + 1)


def detect_skill(
    *,
    explicit: str | None = None,
    texts: Iterable[str | None] = (),
    phase: str | None = None,
    skills: tuple[SkillSpec, ...] = BUILTIN_SKILLS,
) -> SkillSpec | None:
    """Find the active skill: the explicit name, else a trigger in one of `texts`
    (the agent's message, then the human's prompt), else the workflow `phase`."""
    by_name = {s.name.lower(): s for s in skills}
    if explicit:
        key = explicit.strip().lower()
        found = by_name.get(key if key.startswith("/") else f"/{key}")
        if found:
            return found
    for text in texts:
        if not text:
            continue
        for trigger in _triggers(text[:4000]):
            found = by_name.get(trigger.lower())
            if found:
                return found
    if phase:
        wanted = phase.strip().lower()
        for skill in skills:
            if skill.phase.lower() == wanted:
                return skill
    return None
