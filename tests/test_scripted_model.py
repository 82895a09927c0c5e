"""The scripted model server, driven through the real anthropic and openai SDKs."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import anthropic
import openai
import pytest

from coachloop.testing import Delay, Fail, ScriptedModel, Step, reply, text, tool_use

TOOLS: list[Any] = [{"name": "Bash", "input_schema": {"type": "object"}}]
USER: list[Any] = [{"role": "user", "content": "hi"}]


def client(model: ScriptedModel, **kw: Any) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=model.base_url, api_key="test-key", max_retries=0, **kw)


def raw_post(model: ScriptedModel, path: str, body: bytes | dict[str, Any]) -> tuple[int, bytes]:
    url = urlsplit(model.base_url)
    conn = http.client.HTTPConnection(url.hostname or "", url.port, timeout=5)
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn.request("POST", path, body=data, headers={"content-type": "application/json"})
    response = conn.getresponse()
    out = response.status, response.read()
    conn.close()
    return out


def sse_records(raw: bytes) -> Iterator[tuple[str, dict[str, Any]]]:
    """Parse the body strictly: every record is exactly `event: X\\ndata: {json}`."""
    assert raw.endswith(b"\n\n")
    for record in raw.decode().split("\n\n")[:-1]:
        event_line, data_line = record.split("\n")
        assert event_line.startswith("event: ") and data_line.startswith("data: ")
        data = json.loads(data_line[len("data: ") :])
        assert data["type"] == event_line[len("event: ") :]
        yield event_line[len("event: ") :], data


def test_non_streaming_text_and_recorded_request() -> None:
    with ScriptedModel([text("hello there")]) as model:
        message = client(model).messages.create(
            model="claude-test", max_tokens=50, system="sys", messages=USER
        )
        assert message.content[0].type == "text" and message.content[0].text == "hello there"
        assert message.model == "claude-test" and message.stop_reason == "end_turn"
        assert message.id.startswith("msg_") and message.usage.output_tokens > 0
        [request] = model.requests
    assert (request.method, request.path, request.api) == ("POST", "/v1/messages", "anthropic")
    assert request.json["system"] == "sys" and request.json["messages"] == USER
    # This SDK sends the key as a bearer token; older ones used x-api-key.
    sent = request.headers.get("x-api-key") or request.headers["authorization"]
    assert sent.removeprefix("Bearer ") == "test-key"
    assert model.remaining == 0


def test_stream_text_is_the_official_event_sequence() -> None:
    words = "a fairly long reply that is split into several text deltas by the server"
    with ScriptedModel([text(words), text(words)]) as model:
        status, raw = raw_post(
            model,
            "/v1/messages?beta=true",
            {"model": "m", "max_tokens": 5, "stream": True, "messages": USER},
        )
        with client(model).messages.stream(model="m", max_tokens=5, messages=USER) as stream:
            pieces = list(stream.text_stream)
            final = stream.get_final_message()
    assert status == 200
    events = list(sse_records(raw))
    names = [name for name, _ in events]
    assert names[:3] == ["message_start", "content_block_start", "ping"]
    assert names[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    start = events[0][1]["message"]
    assert start["id"].startswith("msg_") and start["model"] == "m" and "usage" in start
    deltas = [d["delta"]["text"] for n, d in events if n == "content_block_delta"]
    assert len(deltas) > 1 and "".join(deltas) == words
    assert events[-2][1]["delta"]["stop_reason"] == "end_turn"
    assert events[-2][1]["usage"]["output_tokens"] > 0
    assert "".join(pieces) == words and final.content[0].type == "text"
    assert final.id == "msg_scripted_0002" and final.usage.input_tokens > 0


def test_sdk_stream_text_and_tool_use() -> None:
    script = [
        text("streamed words, more than one delta long"),
        tool_use("Bash", {"command": "pytest -q", "timeout": 60}, preface="Running."),
    ]
    with ScriptedModel(script) as model, client(model) as sdk:
        with sdk.messages.stream(model="m", max_tokens=9, messages=USER, tools=TOOLS) as stream:
            assert "".join(stream.text_stream) == "streamed words, more than one delta long"
        with sdk.messages.stream(model="m", max_tokens=9, messages=USER, tools=TOOLS) as stream:
            kinds = [event.type for event in stream]
            final = stream.get_final_message()
        assert "input_json" in kinds
        assert [b.type for b in final.content] == ["text", "tool_use"]
        call = final.content[1]
        assert call.type == "tool_use" and call.name == "Bash"
        assert call.input == {"command": "pytest -q", "timeout": 60}
        assert final.stop_reason == "tool_use"
        assert [r.json["stream"] for r in model.requests] == [True, True]


def test_beta_query_is_accepted_and_recorded() -> None:
    with ScriptedModel([text("beta ok")]) as model:
        message = client(model).messages.create(
            model="m", max_tokens=5, messages=USER, extra_query={"beta": "true"}
        )
        assert message.content[0].type == "text" and message.content[0].text == "beta ok"
        assert model.requests[0].query == {"beta": ("true",)}


@pytest.mark.parametrize(
    ("status", "error", "kind"),
    [
        (529, anthropic.InternalServerError, "overloaded_error"),
        (500, anthropic.InternalServerError, "api_error"),
        (401, anthropic.AuthenticationError, "authentication_error"),
    ],
)
def test_http_errors_have_the_api_error_body(
    status: int, error: type[anthropic.APIStatusError], kind: str
) -> None:
    with ScriptedModel([Fail(status), text("after")]) as model, client(model) as sdk:
        with pytest.raises(error) as caught:
            sdk.messages.create(model="m", max_tokens=5, messages=USER)
        assert caught.value.status_code == status
        assert isinstance(caught.value.body, dict)
        assert caught.value.body["error"]["type"] == kind
        # The failure consumed one step: the next request gets the next one.
        after = sdk.messages.create(model="m", max_tokens=5, messages=USER)
        assert after.content[0].type == "text" and after.content[0].text == "after"


def test_delay_provokes_a_client_timeout_and_the_script_goes_on() -> None:
    with ScriptedModel([Delay(3, "too late"), "in time"]) as model, client(model) as sdk:
        started = time.monotonic()
        with pytest.raises(anthropic.APITimeoutError):
            sdk.messages.create(model="m", max_tokens=5, messages=USER, timeout=0.3)
        assert time.monotonic() - started < 2
        message = sdk.messages.create(model="m", max_tokens=5, messages=USER)
        assert message.content[0].type == "text" and message.content[0].text == "in time"
        assert len(model.requests) == 2


def test_side_calls_do_not_consume_the_script() -> None:
    with ScriptedModel(["agent turn"], side_call="A title") as model, client(model) as sdk:
        side = sdk.messages.create(model="m", max_tokens=5, messages=USER)
        turn = sdk.messages.create(model="m", max_tokens=5, messages=USER, tools=TOOLS)
        assert side.content[0].type == "text" and side.content[0].text == "A title"
        assert turn.content[0].type == "text" and turn.content[0].text == "agent turn"
        assert [r.side_call for r in model.requests] == [True, False]
        assert len(model.model_requests) == 1


def test_a_declining_side_rule_falls_through_to_the_script() -> None:
    def rule(body: dict[str, Any]) -> str | None:
        return "summary" if "summarise" in json.dumps(body) else None

    with ScriptedModel(["scripted"], side_call=rule) as model, client(model) as sdk:
        ask: list[Any] = [{"role": "user", "content": "please summarise"}]
        first = sdk.messages.create(model="m", max_tokens=5, messages=ask)
        second = sdk.messages.create(model="m", max_tokens=5, messages=USER)
        assert first.content[0].type == "text" and first.content[0].text == "summary"
        assert second.content[0].type == "text" and second.content[0].text == "scripted"


def test_responders_default_and_exhaustion() -> None:
    def echo(body: dict[str, Any]) -> str:
        return f"you said {body['messages'][-1]['content']}"

    def broken(body: dict[str, Any]) -> str:
        raise RuntimeError("boom")

    with ScriptedModel([echo, broken]) as model, client(model) as sdk:
        message = sdk.messages.create(model="m", max_tokens=5, messages=USER)
        assert message.content[0].type == "text" and message.content[0].text == "you said hi"
        with pytest.raises(anthropic.InternalServerError, match="responder raised"):
            sdk.messages.create(model="m", max_tokens=5, messages=USER)
        assert [type(e) for e in model.errors] == [RuntimeError]
        with pytest.raises(anthropic.InternalServerError, match="script exhausted"):
            sdk.messages.create(model="m", max_tokens=5, messages=USER)
        model.default = reply("fallback reply")
        again = sdk.messages.create(model="m", max_tokens=5, messages=USER)
        assert again.content[0].type == "text" and again.content[0].text == "fallback reply"


def test_openai_chat_completions() -> None:
    script: list[Step] = [text('{"answer": 42}'), tool_use("lookup", {"q": "x"}), Fail(500), "x"]
    with ScriptedModel(script) as model:
        sdk = openai.OpenAI(base_url=model.openai_base_url, api_key="k", max_retries=0)
        first = sdk.chat.completions.create(
            model="local", messages=USER, response_format={"type": "json_object"}
        )
        assert first.choices[0].message.content == '{"answer": 42}'
        assert first.choices[0].finish_reason == "stop" and first.model == "local"
        second = sdk.chat.completions.create(model="local", messages=USER)
        [call] = second.choices[0].message.tool_calls or []
        assert call.type == "function" and json.loads(call.function.arguments) == {"q": "x"}
        with pytest.raises(openai.InternalServerError):
            sdk.chat.completions.create(model="local", messages=USER)
        chunks = sdk.chat.completions.create(model="local", messages=USER, stream=True)
        assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "x"
        assert [r.path for r in model.requests] == ["/v1/chat/completions"] * 4
        assert model.requests[0].json["response_format"] == {"type": "json_object"}
        assert model.requests[0].headers["authorization"] == "Bearer k"


def test_get_head_and_unknown_paths_are_graceful() -> None:
    with ScriptedModel(["unused"]) as model:
        url = urlsplit(model.base_url)
        conn = http.client.HTTPConnection(url.hostname or "", url.port, timeout=5)
        answers = []
        for method, path in [
            ("GET", "/"),
            ("HEAD", "/v1/messages"),
            ("GET", "/v1/models"),
            ("GET", "/nowhere"),
        ]:
            conn.request(method, path)
            response = conn.getresponse()  # one keep-alive connection for all four
            answers.append((response.status, response.read()))
        conn.close()
        status, raw = raw_post(model, "/v1/messages", b"{not json")
        other, _ = raw_post(model, "/v2/else", {"x": 1})
        assert model.remaining == 1  # none of these consumed the script
    assert answers[0] == (200, b'{"status":"ok"}')
    assert answers[1] == (200, b"")
    assert json.loads(answers[2][1])["data"][0]["id"]
    assert answers[3][0] == 404 and json.loads(answers[3][1])["type"] == "error"
    assert status == 400 and json.loads(raw)["error"]["type"] == "invalid_request_error"
    assert other == 404
