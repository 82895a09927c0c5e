"""Splitting and escaping agent text for Telegram (coachloop.chat.split / render).

Every part is checked with the local Bot API server's HTML parser (Telegram's rules: only
its tags, balanced, only its entities) and against the 4096-character limit.
"""

from __future__ import annotations

import html
import re

import pytest

from coachloop.chat.render import render
from coachloop.chat.split import TELEGRAM_LIMIT, blocks, escape, split_html, to_plain
from coachloop.store import OutboxEntry
from coachloop.testing.telegram_wire import check_html, visible_length


def valid(parts: list[str], limit: int = TELEGRAM_LIMIT) -> list[str]:
    """The visible text of each part, asserting each is valid Telegram HTML under `limit`."""
    out = []
    for part in parts:
        assert len(part) <= limit, len(part)
        visible, error = check_html(part)
        assert error is None, (error, part[:200])
        assert 0 < visible_length(visible) <= limit
        out.append(visible)
    return out


def code_bodies(part: str) -> list[str]:
    return [
        html.unescape(m.group(1))
        for m in re.finditer(r"<pre><code[^>]*>(.*?)</code></pre>", part, re.S)
    ]


def test_escaping_html_special_characters() -> None:
    text = "if a < b && c > d: print('<b>not bold</b>') & \"quotes\" stay"
    (part,) = split_html(text)
    assert "<b>" not in part and "&lt;b&gt;not bold&lt;/b&gt;" in part
    assert "&amp;&amp;" in part and '"quotes"' in part
    assert valid([part]) == [text]
    assert escape("<&>") == "&lt;&amp;&gt;"
    assert to_plain(part) == text


def test_inline_code_and_lone_backticks() -> None:
    (part,) = split_html("run `pytest -k <name>` then check the ` mark")
    assert "<code>pytest -k &lt;name&gt;</code>" in part
    assert valid([part]) == ["run pytest -k <name> then check the ` mark"]


def test_splits_at_paragraph_boundaries_first() -> None:
    paragraphs = [f"Paragraph {i}: " + " ".join(["word"] * 150) for i in range(12)]
    text = "\n\n".join(paragraphs)
    assert len(text) > 2 * TELEGRAM_LIMIT
    parts = split_html(text)
    assert len(parts) >= 3
    visible = valid(parts)
    for part in visible:  # every part is whole paragraphs
        assert all(p in paragraphs for p in part.split("\n\n"))
    assert "\n\n".join(visible) == text


def test_a_long_paragraph_splits_at_lines_then_words() -> None:
    lines = [f"line {i} " + "x" * 70 for i in range(120)]  # one paragraph, ~9.4k chars
    parts = split_html("\n".join(lines))
    visible = valid(parts)
    assert len(parts) >= 3
    for part in visible:
        assert all(line in lines for line in part.split("\n"))  # no line was cut
    one_line = " ".join(f"w{i:05d}" for i in range(1500))  # ~10k chars, no newline
    visible = valid(split_html(one_line))
    words = [w for part in visible for w in part.split(" ")]
    assert words == one_line.split(" ")  # cut between words only


def test_a_giant_word_is_cut_without_breaking_an_entity() -> None:
    word = "<&>" * 3000  # each char escapes to 4-5 characters
    parts = split_html(word)
    assert "".join(valid(parts)) == word


def test_code_block_too_long_is_closed_and_reopened_with_its_language() -> None:
    code = "\n".join(f"    assert value[{i}] < limit  # & more" for i in range(300))
    text = f"Here is the fix:\n\n```python\n{code}\n```\n\nAll good <now>."
    parts = split_html(text)
    visible = valid(parts)
    assert len(parts) >= 3
    bodies = [b for p in parts for b in code_bodies(p)]
    assert len(bodies) >= 3
    assert "\n".join(bodies) == code  # every line, in order, none cut
    for part in parts:
        assert part.count("<pre>") == part.count("</pre>")
        for m in re.finditer(r"<pre><code([^>]*)>", part):
            assert m.group(1) == ' class="language-python"'
    assert visible[0].startswith("Here is the fix:")
    assert visible[-1].endswith("All good <now>.")


def test_a_code_block_that_fits_is_never_split() -> None:
    prose = " ".join(["lorem"] * 600)  # ~3.6k chars
    code = "\n".join(f"x{i} = {i}" for i in range(150))  # ~1.3k chars
    parts = split_html(f"{prose}\n\n```\n{code}\n```\n\nend")
    valid(parts)
    holders = [p for p in parts if "<pre>" in p]
    assert (
        len(holders) == 1
        and code_bodies(holders[0]) == []
        and html.unescape(holders[0][holders[0].index("<pre>") + 5 : holders[0].index("</pre>")])
        == code
    )


def test_fences_and_unclosed_blocks() -> None:
    found = blocks("intro\n```sh\nls -la\n```\nmiddle\n```\nopen to the end")
    assert [(b.kind, b.text, b.lang) for b in found] == [
        ("prose", "intro", ""),
        ("code", "ls -la", "sh"),
        ("prose", "middle", ""),
        ("code", "open to the end", ""),
    ]
    (part,) = split_html('```bad lang"><script>\nx\n```')
    assert part == "<pre>x</pre>"  # an unsafe language name is dropped


def test_head_counts_against_the_first_part() -> None:
    head = "🤖 <b>proj</b> · <code>abcd1234</code>"
    parts = split_html("y" * 5000, head=head)
    valid(parts)
    assert parts[0].startswith(head + "\n\n")
    assert split_html("   ", head=head) == [head]
    with pytest.raises(ValueError):
        split_html("x", 10, head="h" * 11)
    with pytest.raises(ValueError):
        split_html("```\ncode\n```", 30, head="h" * 20)  # no room for a code block


def test_small_limits_hold_for_mixed_text() -> None:
    text = (
        "Intro <x>\n\n```js\n"
        + "\n".join(f"a<{i}>" for i in range(60))
        + "\n```\n\n"
        + ("tail & " * 80)
    )
    for limit in (60, 97, 150, 500):
        parts = split_html(text, limit)
        valid(parts, limit)


def entry(text: str, kind: str = "deliver") -> OutboxEntry:
    return OutboxEntry(7, "0f1e2d3c-aaaa-bbbb", 3, kind, text, 0.0)  # type: ignore[arg-type]


def test_render_header_parts_and_document() -> None:
    (part,) = render(entry("Which one: <A> or <B>?"), "my<proj>")
    assert part["type"] == "text"
    assert part["html"].startswith("🤖 <b>my&lt;proj&gt;</b> · <code>0f1e2d3c</code>\n\n")
    assert render(entry("x", "alert"))[0]["html"].startswith("⚠️ <code>0f1e2d3c</code>")
    text = "\n\n".join(["para " * 180] * 10)  # ~9k chars: 3 messages
    parts = render(entry(text), max_parts=4)
    assert [p["type"] for p in parts] == ["text"] * 3
    (doc,) = render(entry(text), max_parts=2)
    assert doc["type"] == "document" and doc["content"] == text
    assert doc["filename"] == "coachloop-0f1e2d3c-7.md"
    visible, error = check_html(doc["caption"])
    assert error is None and visible_length(visible) <= 1024
    assert render(entry("  "))[0]["html"].endswith("(empty message)")
