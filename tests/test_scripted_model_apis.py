"""The scripted model's OpenAI Responses API (through the real `openai` SDK) and Gemini API
(on the wire; the real Gemini CLI drives it in `test_e2e_gemini.py`)."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import openai

from coachloop.testing import Fail, ScriptedModel, reply, text, tool_use
from coachloop.testing.gemini_wire import function_responses, user_texts
from coachloop.testing.responses_wire import function_outputs, input_texts

TOOLS: list[Any] = [{"type": "function", "name": "exec_command", "parameters": {"type": "object"}}]


def responses_client(model: ScriptedModel) -> openai.OpenAI:
    return openai.OpenAI(base_url=model.openai_base_url, api_key="test-key", max_retries=0)


def post(model: ScriptedModel, path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
    url = urlsplit(model.base_url)
    conn = http.client.HTTPConnection(url.hostname or "", url.port, timeout=5)
    conn.request("POST", path, body=json.dumps(body), headers={"content-type": "application/json"})
    response = conn.getresponse()
    out = response.status, response.getheader("content-type") or "", response.read()
    conn.close()
    return out


# --- OpenAI Responses API ---------------------------------------------------------------


def test_responses_text_and_function_call_through_the_sdk() -> None:
    script = [text("hello there"), tool_use("exec_command", {"cmd": "pytest -q"}, preface="ok")]
    with ScriptedModel(script) as model:
        client = responses_client(model)
        first = client.responses.create(model="gpt-test", input="hi")
        assert first.output_text == "hello there" and first.model == "gpt-test"
        with client.responses.stream(model="gpt-test", input="run", tools=TOOLS) as stream:
            events = [event.type for event in stream]
            final = stream.get_final_response()
        [request_1, request_2] = model.requests
    assert (request_1.path, request_1.api) == ("/v1/responses", "responses")
    assert request_2.json["stream"] is True and request_2.json["tools"] == TOOLS
    assert events[:2] == ["response.created", "response.in_progress"]
    assert events[-1] == "response.completed" and "response.output_text.delta" in events
    assert "response.function_call_arguments.done" in events
    message, call = final.output
    assert message.type == "message" and message.content[0].text == "ok"  # type: ignore[union-attr]
    assert call.type == "function_call" and json.loads(call.arguments) == {"cmd": "pytest -q"}
    assert call.call_id.startswith("toolu_scripted_")


def test_responses_errors_and_what_a_client_sent() -> None:
    with ScriptedModel([Fail(429, retry_after=3)]) as model:
        try:
            responses_client(model).responses.create(model="m", input="x")
        except openai.RateLimitError as exc:
            assert exc.status_code == 429 and exc.response.headers["retry-after"] == "3"
        else:
            raise AssertionError("no error raised")
    body = {
        "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "a"}]},
            {"type": "function_call", "call_id": "c1", "name": "exec_command", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "2 passed"},
        ]
    }
    assert input_texts(body) == ["a"] and function_outputs(body) == ["2 passed"]


# --- Gemini API ---------------------------------------------------------------------------


def test_gemini_stream_carries_text_chunks_then_the_call_and_the_finish() -> None:
    long = "a streamed answer long enough to arrive in more than one chunk"
    script = [reply(long, tool_use("run_shell_command", {"command": "ls"}).blocks[0])]
    with ScriptedModel(script) as model:
        path = "/v1beta/models/gemini-x:streamGenerateContent?alt=sse"
        status, kind, raw = post(model, path, {"contents": [], "tools": [{}]})
        [request] = model.requests
    assert status == 200 and kind == "text/event-stream"
    records = [json.loads(r[len("data: ") :]) for r in raw.decode().split("\r\n\r\n") if r]
    parts = [p for r in records for p in r["candidates"][0]["content"]["parts"]]
    assert "".join(p.get("text", "") for p in parts) == long and len(records) > 2
    assert parts[-1] == {"functionCall": {"name": "run_shell_command", "args": {"command": "ls"}}}
    assert records[-1]["candidates"][0]["finishReason"] == "STOP"
    assert "usageMetadata" in records[-1] and "finishReason" not in records[0]["candidates"][0]
    assert (request.api, request.path, dict(request.query)) == (
        "gemini",
        "/v1beta/models/gemini-x:streamGenerateContent",
        {"alt": ("sse",)},
    )


def test_gemini_json_count_tokens_errors_and_what_a_client_sent() -> None:
    with ScriptedModel([text("plain"), Fail(503)]) as model:
        status, _, raw = post(model, "/v1beta/models/g:generateContent", {"contents": []})
        assert status == 200
        answer = json.loads(raw)
        assert answer["candidates"][0]["content"] == {"role": "model", "parts": [{"text": "plain"}]}
        assert answer["modelVersion"] == "g"
        status, _, raw = post(model, "/v1beta/models/g:countTokens", {"contents": []})
        assert status == 200 and json.loads(raw)["totalTokens"] > 0
        status, _, raw = post(model, "/v1beta/models/g:generateContent", {"contents": []})
        assert status == 503 and json.loads(raw)["error"]["status"] == "UNAVAILABLE"
        assert len(model.model_requests) == 2  # countTokens is not a model request
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "fix it"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "ls", "args": {}}}]},
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "ls", "response": {"output": "a"}}}],
            },
            {"role": "user", "parts": [{"text": "[System Coach] "}, {"text": "again"}]},
        ]
    }
    assert user_texts(body) == ["fix it", "[System Coach] again"]
    assert function_responses(body) == [{"output": "a"}]
