"""A reply cut off inside the code block it opened is the run breaking (an output limit),
not work under way: the human must see it. A block whose closing fence was dropped after
complete code, or prose after a lost fence, is not cut."""

from __future__ import annotations

import pytest

from coachloop.judge.rules.features import Features
from coachloop.judge.rules.text import Message, cut_in_code
from judge_support import reads as _reads

_NARRATED = "I'll rewrite the retry helper so it backs off exponentially:\n\n"


@pytest.mark.parametrize(
    "code",
    [
        "```python\ndef backoff(attempt):\n    return min(30, base * 2 ** (attempt",  # a bracket
        "```ts\nexport const client = axios.create({\n  baseURL: env.API_URL,\n  timeo",
        '```go\nlog.Printf("retrying %s after %d ms: connection res',  # a string
        "```php\n$rules = ['email' => 'required|ema",
        "```vue\n<el-tag :type=\"row.ok ? 'success' : 'info'\">{{ row.ok ? '正常' : '停",
    ],
)
def test_a_reply_cut_off_mid_program_is_an_error(code: str) -> None:
    text = _NARRATED + code
    assert Features(Message(text)).truncated
    assert _reads(text) == ("error", "deliver")


@pytest.mark.parametrize(
    "tail",
    [
        "```bash\nnpm run build && npm run preview",  # a command to run; the fence dropped
        "```\n__pycache__/\n*.py[cod]",  # a complete list
        "```python\nitems = {\n    'a': 1,\n```",  # closed on its last line
        "```python\nconfig = dict(\n  retries=3,\nWould you like me to add jitter too?",
        "Done, the helper is in `retry.py`.",  # no block at all
    ],
)
def test_complete_code_or_prose_in_an_open_block_is_not_cut(tail: str) -> None:
    text = _NARRATED + tail
    assert not cut_in_code(text, Message(text).fences)
