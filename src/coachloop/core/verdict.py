"""The judgement's result types: `Verdict`, its `Evidence` and the `Problem`s found.

These are frozen standard-library dataclasses rather than pydantic models on purpose:
a Stop hook judges at every agent stop, and importing pydantic costs about 0.2 s of the
hook's budget. Pydantic still owns validation: `coachloop.judge.schema` validates
untrusted data (LLM output, batch lines) into these very classes with a `TypeAdapter`,
and exports their JSON Schema. Invariants are checked in `__post_init__`, so an
invalid `Verdict` cannot exist whichever way it was built.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args

MessageType = Literal["question", "status", "completion", "blocker", "error"]
Route = Literal["deliver", "continue"]
Source = Literal["signal", "rules", "llm"]
ProblemKind = Literal[
    "hedge",  # the agent's own words doubt the result ("should work", "I think")
    "unverified",  # verification asserted ("all tests pass") but not shown
    "no_evidence",  # a completion claim with nothing checkable behind it
    "placeholder",  # the claimed work is a stub ("returns True for now", "real logic TODO")
    # the checks covering the change skipped ("the 2 skipped are the new ones") or routed
    # around ("the hook failed, so I committed with --no-verify")
    "skipped",
    "failing",  # the evidence shown contains failures
    "off_target",  # evidence shown does not exercise the claimed change
    "skill_evidence",  # the active skill's required evidence is missing
    # found by checking the turn's record (transcript, stream):
    "run_failed",  # passing tests claimed, but the turn's last test run failed
    "no_run",  # passing tests claimed, but no test ran in the turn
    "unverifiable",  # output or a commit shown that appears nowhere in the turn
    "edited_after_run",  # code changed after the turn's last test run
    "no_commit",  # a commit claimed, but none was made in the turn
]

MESSAGE_TYPES: tuple[MessageType, ...] = get_args(MessageType)
ROUTES: tuple[Route, ...] = get_args(Route)


def route_for(kind: MessageType) -> Route:
    """Status goes back to work; every other type reaches the human."""
    return "continue" if kind == "status" else "deliver"


@dataclass(frozen=True, slots=True)
class TestSummary:
    """One test-runner summary found in the text, with its counts."""

    runner: str
    passed: int
    failed: int = 0
    skipped: int = 0
    line: str = ""

    @property
    def ok(self) -> bool:
        """True when tests ran and none failed."""
        return self.passed > 0 and self.failed == 0


@dataclass(frozen=True, slots=True)
class Evidence:
    """Checkable facts found in a message. Empty tuples mean "none shown".

    `recorded` holds facts confirmed from the turn's record, cited ("from the
    transcript: `pytest -q` → 2 tests OK, after the last edit").
    """

    tests: tuple[TestSummary, ...] = ()
    commits: tuple[str, ...] = ()
    pull_requests: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    exit_codes: tuple[int, ...] = ()
    successes: tuple[str, ...] = ()
    failures: tuple[str, ...] = ()
    recorded: tuple[str, ...] = ()

    @property
    def tests_ok(self) -> bool:
        """Some run passed tests and no run failed any. A run of zero tests beside a
        passing one (cargo's doc-tests: "0 passed; 0 failed") is not a failure."""
        return any(t.ok for t in self.tests) and all(t.failed == 0 for t in self.tests)

    @property
    def failed_tests(self) -> int:
        return sum(t.failed for t in self.tests)

    def is_empty(self) -> bool:
        return not any(getattr(self, name) for name in self.__slots__)


@dataclass(frozen=True, slots=True)
class Problem:
    """A specific reason a completion was rejected; `quote` is the words that show it."""

    kind: ProblemKind
    detail: str
    quote: str | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a stop is and where it goes.

    Contract: `route` is "continue" exactly when `type` is "status"; `coaching_message`
    is None when the route is "deliver"; `rejected_completion` implies type "status";
    `confidence` is within [0, 1].
    """

    type: MessageType
    confidence: float
    reason: str
    source: Source
    route: Route = "deliver"
    coaching_message: str | None = None
    rejected_completion: bool = False
    evidence: Evidence = field(default_factory=Evidence)
    problems: tuple[Problem, ...] = ()

    def __post_init__(self) -> None:
        if self.type not in MESSAGE_TYPES:
            raise ValueError(f"unknown message type {self.type!r}")
        if self.route != route_for(self.type):
            raise ValueError(f"route {self.route!r} does not fit type {self.type!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence {self.confidence} is outside [0, 1]")
        if self.route == "deliver" and self.coaching_message is not None:
            raise ValueError("a delivered verdict carries no coaching message")
        if self.rejected_completion and self.type != "status":
            raise ValueError("a rejected completion is a status verdict")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (tuples become lists)."""
        return asdict(self)
