"""Shared test setup: an isolated data directory, and no real model calls.

Every test gets its own `COACHLOOP_HOME`. Model API keys are removed and the SDKs'
base URLs point at a closed local port, so a test that forgets to use the scripted
model fails fast instead of reaching a real API. A test opts in to real calls with
`@pytest.mark.allow_model_calls`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

_MODEL_ENV = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "OPENAI_API_KEY",
    "COACHLOOP_JUDGE",
    "COACHLOOP_MODEL",
    "COACHLOOP_LLM_BASE_URL",
)
CLOSED_URL = "http://127.0.0.1:9"


@pytest.fixture(autouse=True)
def _isolated(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COACHLOOP_HOME", str(tmp_path / "coachloop-home"))
    if request.node.get_closest_marker("allow_model_calls"):
        return
    for name in _MODEL_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", CLOSED_URL)
    monkeypatch.setenv("OPENAI_BASE_URL", CLOSED_URL)
