"""The model seam of the LLM judge, and the choice of provider from settings.

A `Model` answers one structured request: a system prompt, the conversation so far
(user and assistant turns; a retry adds the invalid answer and the validation error),
and the JSON Schema the answer must fit. It returns the raw answer text (JSON
expected) and raises `ModelError` for anything that is not an answer: timeout, HTTP
error, connection failure. Providers import their SDK lazily (optional extras).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from coachloop.config import Settings

__all__ = [
    "DEFAULT_MODELS",
    "Model",
    "ModelError",
    "ModelUnavailableError",
    "Turn",
    "make_model",
    "parse_judge_spec",
]

ErrorKind = Literal["timeout", "connection", "status", "api", "sdk"]
DEFAULT_MODELS = {"anthropic": "claude-haiku-4-5", "openai": "gpt-4o-mini"}
DEFAULT_KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
LOCAL_DUMMY_KEY = "not-needed"  # local OpenAI-compatible servers accept any key


@dataclass(frozen=True, slots=True)
class Turn:
    """One conversation turn given to the model."""

    role: Literal["user", "assistant"]
    text: str


class ModelError(Exception):
    """A model call that gave no answer; `kind` says why (for the fallback's reason)."""

    def __init__(self, kind: ErrorKind, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class ModelUnavailableError(Exception):
    """The model cannot be used at all (no key, SDK missing, unknown provider)."""


class Model(Protocol):
    """One structured completion per call; see the module docstring for the contract."""

    @property
    def name(self) -> str:
        """ "provider:model", for reasons and logs."""
        ...

    def complete(
        self, system: str, turns: Sequence[Turn], schema: Mapping[str, Any], timeout: float
    ) -> str: ...


def parse_judge_spec(spec: str) -> tuple[str, str | None]:
    """ "anthropic" → ("anthropic", None); "openai:llama3.1:8b" → ("openai", "llama3.1:8b")."""
    provider, _, model = spec.strip().partition(":")
    return provider.strip().lower(), (model.strip() or None)


def _key(settings: Settings, provider: str) -> str | None:
    names = [settings.llm_api_key_env] if settings.llm_api_key_env else [DEFAULT_KEY_ENV[provider]]
    # Provider API keys, named by the config (`llm_api_key_env`) or the provider's
    # default: secrets are read where used, never kept in the settings object.
    return next((os.environ[n] for n in names if os.environ.get(n)), None)


def make_model(settings: Settings) -> Model:
    """The configured model; raises `ModelUnavailableError` before any network call.

    Provider from `settings.judge` ("anthropic" or "openai", optionally ":MODEL");
    model from `settings.model`, else the spec, else the provider default. The key is
    read from the env var named by `settings.llm_api_key_env`, else the provider's
    usual one. An OpenAI-compatible provider with an explicit `llm_base_url` and no
    key uses a dummy key (local servers such as Ollama need none).
    """
    provider, spec_model = parse_judge_spec(settings.judge)
    if provider not in DEFAULT_MODELS:
        raise ModelUnavailableError(
            f"unknown judge provider {provider!r} (use anthropic or openai)"
        )
    model = settings.model or spec_model or DEFAULT_MODELS[provider]
    key = _key(settings, provider)
    if key is None and provider == "openai" and settings.llm_base_url:
        key = LOCAL_DUMMY_KEY
    if key is None:
        env = settings.llm_api_key_env or DEFAULT_KEY_ENV[provider]
        raise ModelUnavailableError(f"no API key for {provider} (set {env})")
    try:
        if provider == "anthropic":
            from coachloop.judge.providers.anthropic import AnthropicModel

            return AnthropicModel(model=model, api_key=key, base_url=settings.llm_base_url)
        from coachloop.judge.providers.openai import OpenAIModel

        return OpenAIModel(model=model, api_key=key, base_url=settings.llm_base_url)
    except ImportError as exc:
        from coachloop.core.extras import install_hint

        raise ModelUnavailableError(
            f"the {provider} SDK is not installed ({install_hint(provider)}): {exc}"
        ) from exc
