"""The LLM judge: one model call classifies the stop and, on rejection, coaches.

`LLMJudge.judge` never raises. Its contract:
- one model call per judgement; an invalid answer (not JSON, or not fitting the
  schema) gets ONE retry whose conversation carries the validation error, and a
  second invalid answer falls back;
- no model (no key, SDK missing, unknown provider), a timeout, or any API error falls
  back at once, with no retry;
- `timeout` bounds the whole judgement, retry included;
- an answer below `threshold` confidence becomes a delivered "question" without
  coaching (the human decides);
- a fallback verdict is the fallback judge's own (source "rules"), its reason
  extended with why the LLM was not used.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import Verdict
from coachloop.judge.base import Judge
from coachloop.judge.prompt import SYSTEM_PROMPT, build_user_message, retry_message
from coachloop.judge.providers import Model, ModelError, ModelUnavailableError, make_model
from coachloop.judge.providers.structured import ask
from coachloop.judge.schema import AnswerError, LLMAnswer, answer_schema, parse_answer, to_verdict

if TYPE_CHECKING:
    from coachloop.config import Settings

__all__ = ["LLMJudge", "build_llm_judge"]

log = logging.getLogger(__name__)


class LLMJudge:
    """A `Judge` backed by one structured model call, with `fallback` as safety net.

    `model` None means the LLM is unavailable; `unavailable` then says why.
    """

    def __init__(
        self,
        model: Model | None,
        fallback: Judge,
        *,
        threshold: float = 0.80,
        timeout: float = 20.0,
        max_text_chars: int = 12_000,
        unavailable: str = "no model configured",
    ) -> None:
        self.model = model
        self.fallback = fallback
        self.threshold = threshold
        self.timeout = timeout
        self.max_text_chars = max_text_chars
        self.unavailable = unavailable
        self.schema = answer_schema()

    def judge(self, item: JudgeInput) -> Verdict:
        """The verdict for `item` (see the module docstring for the contract)."""
        if self.model is None:
            return self._fall_back(item, self.unavailable)
        try:
            answer = self._ask(self.model, item)
        except ModelError as exc:
            return self._fall_back(item, f"{self.model.name} call failed ({exc})")
        except AnswerError as exc:
            return self._fall_back(item, f"{self.model.name} answered invalidly twice ({exc})")
        except Exception as exc:  # the judge never raises, whatever the SDK does
            log.exception("LLM judge failed unexpectedly")
            return self._fall_back(item, f"{self.model.name} failed: {exc!r}")
        return self._gate(answer)

    def _ask(self, model: Model, item: JudgeInput) -> LLMAnswer:
        """The validated answer; raises ModelError, or AnswerError after the retry."""
        asked = ask(
            model,
            SYSTEM_PROMPT,
            build_user_message(item, self.max_text_chars),
            self.schema,
            parse_answer,
            retry=retry_message,
            invalid=AnswerError,
            timeout=self.timeout,
        )
        if asked.value is not None:
            return asked.value
        if asked.attempts == 1:
            raise ModelError("timeout", f"no time left to retry an invalid answer ({asked.error})")
        raise AnswerError(asked.error)

    def _gate(self, answer: LLMAnswer) -> Verdict:
        if answer.type == "question" or answer.confidence >= self.threshold:
            return to_verdict(answer)
        return Verdict(
            type="question",
            confidence=answer.confidence,
            reason=(
                f"low confidence ({answer.confidence:.2f} < {self.threshold:.2f}) that this is "
                f"{answer.type}, so the human decides: {answer.reason.strip()}"
            ),
            source="llm",
        )

    def _fall_back(self, item: JudgeInput, why: str) -> Verdict:
        log.info("LLM judge not used: %s", why)
        verdict = self.fallback.judge(item)
        return replace(verdict, reason=f"{verdict.reason} [LLM judge not used: {why}]")


def build_llm_judge(settings: Settings, fallback: Judge) -> Judge:
    """The LLM judge for `settings` (provider from `settings.judge`), never raising.

    Without a usable model (no key, SDK missing, unknown provider) the judge always
    falls back, and says why in the verdict's reason; no network call is made.
    """
    try:
        model: Model | None = make_model(settings)
        why = ""
    except ModelUnavailableError as exc:
        model, why = None, str(exc)
    return LLMJudge(
        model,
        fallback,
        threshold=settings.confidence_threshold,
        timeout=settings.llm_timeout,
        max_text_chars=settings.max_text_chars,
        unavailable=why or "no model configured",
    )
