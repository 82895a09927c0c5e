"""The coach as a deepagents subagent (the `deepagents` extra).

`create_coach_subagent(model=...)` returns a declarative subagent for
`deepagents.create_deep_agent(subagents=[...])` as the current deepagents API defines
it (`deepagents.SubAgent`, a TypedDict): `name`, `description`, `system_prompt`,
`tools`, `model` ("provider:model" or a chat model instance) and `response_format`
(`CoachAnswer`, the pydantic model of a decision, so the subagent's result is a
structured decision the caller still validates and enforces). Its instructions are
the same `COACH_INSTRUCTIONS` as every other coach; its tools are the same
`CoachTools`, wrapped as LangChain tools bound to one project.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from coachloop.duel.decision import CoachAnswer
from coachloop.duel.instructions import COACH_INSTRUCTIONS
from coachloop.duel.testcmd import from_string
from coachloop.duel.tools import CoachTools

if TYPE_CHECKING:
    from deepagents import SubAgent
    from langchain_core.language_models import BaseChatModel
    from langchain_core.tools import BaseTool

__all__ = ["COACH_DESCRIPTION", "DEFAULT_MODEL", "coach_tools", "create_coach_subagent"]

DEFAULT_MODEL = "anthropic:claude-sonnet-4-5"
COACH_DESCRIPTION = (
    "Reviews the player's work on a task against its requirements: runs the tests, reads "
    "the diff and the player's report, and returns a structured decision (approve, or "
    "feedback with specific actionable items and a severity). Use it after each player "
    "turn; only its approval, confirmed by the evidence, ends the task."
)
_STRUCTURED = (
    "\nWhen you have decided, give the decision as your structured response (the "
    "CoachAnswer fields) rather than as text."
)


def coach_tools(
    project: Path | str = ".",
    *,
    test_command: str | None = None,
    timeout: float = 300.0,
    base: str | None = None,
) -> list[BaseTool]:
    """The five coach tools as LangChain tools on `project` (each returns its text)."""
    from langchain_core.tools import StructuredTool

    tools = CoachTools(
        Path(project),
        test_command=from_string(test_command) if test_command else None,
        timeout=timeout,
        base=base,
    )

    def run_all_tests() -> str:
        """Run the project's whole test suite; returns the command, exit code and output."""
        return tools.run_all_tests().text

    def run_specific_tests(tests: list[str]) -> str:
        """Run only the given tests (file paths or test ids such as path::name)."""
        return tools.run_specific_tests(list(tests)).text

    def check_coverage(source: str | None = None) -> str:
        """Run the tests under coverage for `source` (default: the whole project)."""
        return tools.check_coverage(source).text

    def diff_changes() -> str:
        """Summary and diff of the changes (cut past 10,000 characters, with a note)."""
        return tools.diff_changes().text

    def validate_json_schema(
        file_path: str, schema_name: str = "report", expected_keys: list[str] | None = None
    ) -> str:
        """Check a JSON file against the "report" or "decision" schema (or a schema file
        path) and that `expected_keys` are present."""
        return tools.validate_json_schema(file_path, schema_name, expected_keys).text

    functions: list[Any] = [
        run_all_tests,
        run_specific_tests,
        check_coverage,
        diff_changes,
        validate_json_schema,
    ]
    return [StructuredTool.from_function(f) for f in functions]


def create_coach_subagent(
    model: str | BaseChatModel = DEFAULT_MODEL,
    *,
    project: Path | str = ".",
    test_command: str | None = None,
    timeout: float = 300.0,
    base: str | None = None,
) -> SubAgent:
    """The coach subagent for `create_deep_agent(subagents=[...])` (see the module doc)."""
    return {
        "name": "coach",
        "description": COACH_DESCRIPTION,
        "system_prompt": COACH_INSTRUCTIONS + _STRUCTURED,
        "tools": coach_tools(project, test_command=test_command, timeout=timeout, base=base),
        "model": model,
        "response_format": CoachAnswer,
    }
