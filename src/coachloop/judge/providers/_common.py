"""What the providers share: their SDKs' errors as `ModelError`s.

The `anthropic` and `openai` SDKs are generated alike: both raise `APITimeoutError`
(a kind of `APIConnectionError`), `APIConnectionError` and `APIStatusError`, all under
one root error class (`AnthropicError`, `OpenAIError`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from coachloop.judge.providers import ModelError

__all__ = ["model_errors"]


@contextmanager
def model_errors(sdk: ModuleType, root: type[Exception], timeout: float) -> Iterator[None]:
    """Raise what the SDK module `sdk` raises inside the block as a `ModelError`.

    Contract: a timeout (`timeout` is the call's, for the message) → "timeout", any
    other connection failure → "connection", an HTTP error status → "status", any
    other `root` error → "api"; each chained to the SDK's exception. Other exceptions
    pass through unchanged.
    """
    try:
        yield
    except sdk.APITimeoutError as exc:
        raise ModelError("timeout", f"no answer within {timeout:g}s") from exc
    except sdk.APIConnectionError as exc:
        raise ModelError("connection", str(exc)) from exc
    except sdk.APIStatusError as exc:
        raise ModelError("status", f"HTTP {exc.status_code}: {exc.message}") from exc
    except root as exc:
        raise ModelError("api", str(exc)) from exc
