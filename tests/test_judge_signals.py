"""Named signals and sure deliveries of the offline judge (issue 10's detectors)."""

from __future__ import annotations

from coachloop.core.judge_input import JudgeInput
from coachloop.judge.rules.classify import classify
from coachloop.judge.rules.features import Features
from coachloop.judge.rules.sure import sure_deliver
from coachloop.judge.rules.text import Message


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


def test_a_request_before_a_closing_list_is_a_question() -> None:
    text = (
        "I restarted both dev servers and checked the ports.\n\n"
        "Could you please let me know:\n"
        "1. Does the page at http://localhost:5173 open in your browser?\n"
        "2. Is there any error printed where the servers run?\n\n"
        "That tells me which of the two to look at first."
    )
    assert _sure(text) == "question"
    assert _sure("Plan written to docs/plan.md. Awaiting your OK to open the branch.") == (
        "question"
    )
    assert _sure("Plan written to docs/plan.md. Next I open the branch.") is None


def test_a_pushed_range_is_a_commit() -> None:
    from coachloop.evidence.text import extract

    pushed = extract("Pushed the 3 local commits:\n\n`4e1c09a..b7d2f35  main -> main`")
    assert pushed.commits == ("b7d2f35",)
    assert extract("See lines 1..20 of the log").commits == ()


def test_ties_in_an_explanation_are_broken_by_name() -> None:
    from coachloop.judge.rules.scorer import Scorer

    scorer = Scorer({"short": -0.5, "no_prompt": -0.5, "headings": -0.5}, 0.0, 0.7, {}, {})
    for on in ({"short", "no_prompt", "headings"}, {"headings", "short", "no_prompt"}):
        assert scorer.explain(on, toward_continue=False, limit=3) == [
            scorer.explain({name}, toward_continue=False)[0]
            for name in ("headings", "no_prompt", "short")
        ]
    # word weights summed in any order give one value
    words = Scorer({}, 0.0, 0.7, {}, {"prose": {"a": 0.1, "b": 0.2, "c": 0.3}})
    said: tuple[frozenset[str], frozenset[str]] = (frozenset({"a", "b", "c"}), frozenset())
    assert words.said_weight(said) == 0.6


def under_way(text: str) -> bool:
    """The message reads as work still under way at its end."""
    return Features(Message(text)).ongoing_tail


def test_work_announced_in_terse_or_cjk_endings_is_under_way() -> None:
    assert under_way("依赖已安装。现在修改配置文件：")  # a full-width colon
    assert under_way("Two of the checks disagree. Need to rerun the third one.")
    assert under_way("### Step 4: Add the settings page")
    assert not under_way("The settings page is added; see `src/pages/settings.tsx`.")
    assert not under_way("You need to add the key to `.env` yourself.")
    assert not under_way("# Settings\n\nThe page lists every option and its default.")


def test_what_someone_else_will_do_is_not_work_under_way() -> None:
    assert under_way("The first batch is migrated. Will report back once the rest is done.")
    assert under_way("The first batch is migrated. We will update the remaining tables next.")
    assert not under_way("PR opened: https://example.com/pr/1. The CI bot will post its results.")


def test_only_a_heading_naming_a_step_is_work_about_to_start() -> None:
    assert under_way("## Phase 2 - the importer")
    assert under_way("### 3. Wire the settings form")
    assert under_way("## 第2步：连接数据库")
    # a lone heading that says something else is not a step: with no other rule the
    # human decides (the fail-safe), it is never sent back for naming no step
    assert not under_way("# Blocked: the staging database password has expired")
    assert not under_way("## Decision needed: keep the v1 endpoints or remove them")


def test_a_lone_heading_for_the_human_is_delivered() -> None:
    from coachloop.judge.rules import RulesJudge

    for text in (
        "# Blocked: the staging database password has expired",
        "## Decision needed: keep the v1 endpoints or remove them",
    ):
        assert RulesJudge().judge(JudgeInput(text=text)).route == "deliver", text


def test_a_request_is_read_wherever_the_600_character_window_starts() -> None:
    # the window over the prose's end may open inside the word before a request: it
    # starts at the next space, so the request is read whole wherever the cut falls
    checks = "\n".join(f"- whether check number {i} passes on the staging host" for i in range(9))
    request = "The build ran twice. Please let me know when the VPN is up:\n"
    base = Message(request + checks).low_prose
    to_end = len(base) - base.index("please")
    for cut in range(8):  # the window opens `cut` characters into "please "
        last = "\n- and " + "z" * (600 + cut - to_end - 7)  # a last check filling the gap
        text = "The logs are long. " * 3 + request + checks + last
        prose = Message(text).low_prose
        assert len(prose) - prose.index("please") == 600 + cut
        assert _sure(text) == "question", cut
    far = "Please let me know when the VPN is up.\n" + checks + "\n" + checks
    assert _sure(far) is None  # too far from the end, and not in the last sentences
    # a cut word before a newline: the window opens on the next line, not a space later
    before = "The logs are long. " * 20 + "y" * 150 + "\n"
    newline = before + "Let me know when the VPN is up:\n" + checks
    prose = Message(newline).low_prose
    assert len(prose) - 600 in range(prose.index("yyy"), prose.index("let me know"))
    assert _sure(newline) == "question"
