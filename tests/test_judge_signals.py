"""Named signals and sure deliveries of the offline judge (issue 10's detectors)."""

from __future__ import annotations

from coachloop.judge.rules.classify import classify
from coachloop.judge.rules.features import Features
from coachloop.judge.rules.text import Message
from coachloop.judge.rules.vector import sure_deliver


def _sure(text: str, prompt: str | None = None) -> str | None:
    f = Features(Message(text))
    return sure_deliver(f, classify(f, prompt, None))


def test_a_loop_is_read_on_the_agents_own_lines() -> None:
    looping = "\n".join(["I'll run the command now.", "I'll do it."] * 5)
    assert _sure(looping) == "error"
    # fence markers and code shown several times are not a loop: each block's "```"
    # line repeats in any message with many blocks
    steps = "\n\n".join(
        f"Now let me update step {i} of the migration:\n```\nend\n```\n```\nend\n```"
        for i in range(5)
    )
    assert _sure(steps) is None
    listed = "\n".join(f"- `file{i}.py`: updated the imports" for i in range(4))
    assert _sure("Changes:\n" + "\n".join(["- `a.py`"] * 6) + "\n" + listed) is None
