"""Validation of untrusted data into the judge's types, and their JSON Schemas.

- `LLMAnswer` is what the LLM judge must answer; `parse_answer` validates raw model
  output (a JSON text, possibly fenced, or an already-decoded object) and raises
  `AnswerError` with a message fit to show the model on a retry.
- `answer_schema()` is the JSON Schema given to the model (tool `input_schema` or
  `response_format`): every field required, no extra fields.
- `to_verdict` turns a valid answer into a `Verdict` (source "llm").
- `VERDICT_ADAPTER` / `JUDGE_INPUT_ADAPTER` validate batch data (JSON lines) into the
  frozen dataclasses of `coachloop.core.verdict` and `coachloop.core.judge_input`, whose
  own invariants (`Verdict.__post_init__`) then hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Verdict, route_for

__all__ = [
    "ANSWER_ADAPTER",
    "JUDGE_INPUT_ADAPTER",
    "VERDICT_ADAPTER",
    "AnswerError",
    "LLMAnswer",
    "answer_schema",
    "parse_answer",
    "to_verdict",
]


class LLMAnswer(BaseModel):
    """The LLM judge's answer for one stop.

    Extra keys are ignored (a model that adds a field still gives a usable answer);
    `coaching_message` matters only for type "status" and `rejected_completion` only
    when a completion claim was downgraded to status.
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    type: Literal["question", "status", "completion", "blocker", "error"] = Field(
        description="What the message is."
    )
    confidence: float = Field(ge=0.0, le=1.0, description="Confidence in `type`, 0 to 1.")
    reason: str = Field(description="One sentence: why this type.")
    coaching_message: str | None = Field(
        default=None,
        description="Only for type status: the specific, directive instruction that sends "
        "the agent back to work. null for every other type.",
    )
    rejected_completion: bool = Field(
        default=False,
        description="true when the agent claimed to be done but the claim was rejected "
        "(so the type is status).",
    )


ANSWER_ADAPTER: TypeAdapter[LLMAnswer] = TypeAdapter(LLMAnswer)
VERDICT_ADAPTER: TypeAdapter[Verdict] = TypeAdapter(Verdict)
JUDGE_INPUT_ADAPTER: TypeAdapter[JudgeInput] = TypeAdapter(JudgeInput)


class AnswerError(ValueError):
    """The model's output is not a valid answer; `str()` explains it for a retry."""


def _strip(node: Any) -> Any:
    """Drop titles and defaults (unsupported by strict structured-output modes)."""
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if k not in ("title", "default")}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def answer_schema() -> dict[str, Any]:
    """The answer's JSON Schema: an object, all five fields required, nothing else."""
    schema: dict[str, Any] = _strip(LLMAnswer.model_json_schema())
    schema["description"] = "The verdict on the agent's final message."
    schema["required"] = list(schema["properties"])
    schema["additionalProperties"] = False
    return schema


def _decode(raw: str) -> Any:
    from coachloop.judge.providers.structured import find_object

    found = find_object(raw, "type")
    if found is None:
        shown = raw if len(raw) <= 200 else raw[:200] + "…"
        raise AnswerError(f"the answer is not a JSON object: {shown!r}")
    return found


def parse_answer(raw: str | Mapping[str, Any]) -> LLMAnswer:
    """Validate raw model output into an `LLMAnswer`; raises `AnswerError`.

    A text may wrap the JSON object in a Markdown fence or in surrounding prose.
    """
    data = _decode(raw) if isinstance(raw, str) else dict(raw)
    if not isinstance(data, dict):
        raise AnswerError(f"the answer must be a JSON object, got {type(data).__name__}")
    try:
        return ANSWER_ADAPTER.validate_python(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'answer'}: {e['msg']}" for e in exc.errors()
        )
        raise AnswerError(f"the answer does not fit the schema: {problems}") from exc


def to_verdict(answer: LLMAnswer) -> Verdict:
    """The `Verdict` for a valid answer: coaching and rejection kept only for status."""
    is_status = answer.type == "status"
    coaching = (answer.coaching_message or "").strip() if is_status else ""
    return Verdict(
        type=answer.type,
        confidence=answer.confidence,
        reason=answer.reason.strip() or f"judged {answer.type}",
        source="llm",
        route=route_for(answer.type),
        coaching_message=coaching or None,
        rejected_completion=answer.rejected_completion and is_status,
    )
