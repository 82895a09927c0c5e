"""Evidence extraction: test-runner summaries, commits, PR links, paths, commands."""

from __future__ import annotations

import pytest

from coachloop.evidence import extract
from coachloop.evidence.text import ran_with_output

RUNNERS = [
    ("pytest", "===== 2 failed, 131 passed, 1 skipped in 4.88s =====", 131, 2),
    ("pytest", "34 passed in 1.47s", 34, 0),
    ("unittest", "Ran 48 tests in 3.812s\n\nOK", 48, 0),
    ("unittest", "Ran 10 tests in 0.1s\n\nFAILED (failures=2)", 8, 2),
    ("jest", "Tests:       3 failed, 211 passed, 214 total", 211, 3),
    ("vitest", " Test Files  2 passed (2)\n      Tests  29 passed (29)", 29, 0),
    ("cargo", "test result: ok. 37 passed; 0 failed; 0 ignored; 0 measured", 37, 0),
    ("mix", "Finished in 1.9 seconds\n42 tests, 0 failures", 42, 0),
    ("rspec", "212 examples, 0 failures", 212, 0),
    ("maven", "[INFO] Tests run: 212, Failures: 1, Errors: 0, Skipped: 3", 208, 1),
    ("gradle", "47 tests completed, 2 failed", 45, 2),
    ("dotnet", "Passed!  - Failed:     0, Passed:   156, Skipped:     0, Total:   156", 156, 0),
    ("mocha", "  12 passing (34ms)\n  1 failing", 12, 1),
    ("playwright", "Running 12 tests using 4 workers\n  12 passed (34.2s)", 12, 0),
    ("phpunit", "OK (41 tests, 97 assertions)", 41, 0),
    ("ctest", "100% tests passed, 0 tests failed out of 24", 24, 0),
    ("xctest", "Executed 37 tests, with 0 failures (0 unexpected) in 0.2 seconds", 37, 0),
    ("generic", "All 154 tests pass and the build is green.", 154, 0),
    ("generic", "220/220 pass", 220, 0),
]


@pytest.mark.parametrize(("runner", "text", "passed", "failed"), RUNNERS)
def test_runner_summaries(runner: str, text: str, passed: int, failed: int) -> None:
    ev = extract(text)
    assert ev.tests, f"no summary found for {runner}"
    assert ev.tests[0].runner == runner
    assert (ev.tests[0].passed, ev.tests[0].failed) == (passed, failed)
    assert ev.tests_ok == (failed == 0)


def test_go_test_packages_are_counted() -> None:
    text = "ok  \tgithub.com/a/b/config\t0.031s\nok  \tgithub.com/a/b/api\t0.4s\nFAIL\tgithub.com/a/b/db\t1.2s"
    ev = extract(text)
    assert [(t.runner, t.passed, t.failed) for t in ev.tests] == [("go", 2, 1)]


def test_a_run_of_nothing_is_not_evidence() -> None:
    ev = extract("collected 0 items\n\n==== no tests ran in 0.02s ====")
    assert ev.tests and ev.tests[0].runner == "none"
    assert not ev.tests_ok


def test_commits_prs_paths_commands_and_exit_codes() -> None:
    text = (
        "Fixed it in `src/app/views.py:58` and `docs/guide.md`. Commit `9c3d2a7`, "
        "PR https://github.com/acme/shop/pull/219 and https://gitlab.com/g/p/-/merge_requests/7.\n"
        "```\n$ make lint\n```\nBoth exit 0."
    )
    ev = extract(text)
    assert ev.commits == ("9c3d2a7",)
    assert ev.pull_requests == (
        "https://github.com/acme/shop/pull/219",
        "https://gitlab.com/g/p/-/merge_requests/7",
    )
    assert "src/app/views.py" in ev.paths and "docs/guide.md" in ev.paths
    assert ev.commands == ("make lint",)
    assert ev.exit_codes == (0,)


def test_words_that_look_like_hashes_are_not_commits() -> None:
    assert extract("The commit message says `deadline` and `abcdefg`.").commits == ()


def test_a_hash_of_digits_only_counts_after_commit_words() -> None:
    # one short hash in 27 has no letter: named as a commit, it is one
    assert extract("The fix is already committed (`8784263`).").commits == ("8784263",)
    assert extract("Pushed as commit 4410923 to main.").commits == ("4410923",)
    # alone, seven digits in backticks are any number
    assert extract("It now handles `1048576` rows per batch.").commits == ()


def test_empty_and_prose_only_text_has_no_evidence() -> None:
    assert extract("").is_empty()
    assert extract("I changed the handler and it should work.").is_empty()


def test_a_jsx_line_closing_a_tag_is_not_a_command() -> None:
    # a prompt takes its command on the same line: ">" alone, then code, is markup
    assert extract("```tsx\n<Button\n  onClick={go}\n>\n  <Icon />\n</Button>\n```").commands == ()


def test_sql_shell_prompts_show_commands() -> None:
    ev = extract("```\nprod=> SELECT count(*) FROM orders;\n count\n-------\n 12\n(1 row)\n```")
    assert ev.commands == ("SELECT count(*) FROM orders;",)
    assert extract("mysql> SHOW TABLES;\n+---+").commands == ("SHOW TABLES;",)


@pytest.mark.parametrize(
    ("text", "ran"),
    [
        ("```\n$ curl -s https://x.dev/healthz\n200 0.18s\n```", True),
        ("```\nshop=# UPDATE items SET price = 0;\nUPDATE 3\n```", True),
        ("Run it yourself:\n```\n$ make deploy\n```", False),  # no output after it
        ("```\n$ make build\n$ make deploy\n```", False),  # only commands
        ("```\nshop=# BEGIN;\nshop=# COMMIT;\n```", False),  # only a SQL shell's commands
    ],
)
def test_a_command_with_its_output_is_a_run_shown(text: str, ran: bool) -> None:
    assert ran_with_output(text) is ran


def test_a_deploy_told_in_prose_is_not_a_tools_success_line() -> None:
    assert extract("Redeployed to Cloudflare Pages with the latest build.").successes == ()


def test_a_markdown_quote_is_not_a_command() -> None:
    text = "> [!WARNING]\n> <details>\n> The build may fail.\n\n> npm run build\n"
    assert extract(text).commands == ("npm run build",)


_GOOSE = "─── shell | developer ──────────────────────────\ncommand: cargo test -q\n\n"


def test_a_goose_shell_call_is_a_command_and_its_output_a_run_shown() -> None:
    # Goose's CLI prints a call's header, then its parameters as "name: value" lines
    ran = _GOOSE + "test result: ok. 12 passed; 0 failed\n\nAll green."
    assert extract(ran).commands == ("cargo test -q",)
    assert ran_with_output(ran)
    # the call alone, before the next call's header, shows no run
    assert not ran_with_output(_GOOSE + "─── text_editor | developer ───────\npath: a.rs\n")
    # "command:" without Goose's header is prose, not a command
    assert extract("The command: make deploy\ncommand: make deploy\n").commands == ()


@pytest.mark.parametrize(
    ("line", "passed", "failed", "skipped"),
    [
        ("12 skipped in 0.08s", 0, 0, 12),  # every test skipped: a run of no test
        ("===== 1 passed, 12 skipped in 0.08s =====", 1, 0, 12),  # read once, whole
        ("3 failed, 12 skipped in 1.2s", 0, 3, 12),
        # counts written with thousands separators (a wrapper's or a pasted summary) are read
        # whole, not from the last group of digits on
        ("== 2 failed, 1,204 passed, 3 skipped in 33.1s ==", 1204, 2, 3),
        ("1,012 skipped in 0.3s", 0, 0, 1012),
    ],
)
def test_pytest_summaries_with_skipped_tests(
    line: str, passed: int, failed: int, skipped: int
) -> None:
    (run,) = extract(f"$ pytest -q\n{line}\n").tests
    assert (run.passed, run.failed, run.skipped) == (passed, failed, skipped)


def test_a_gemini_cli_call_still_executing_ends_the_text_mid_work() -> None:
    from coachloop.evidence import harness
    from coachloop.judge.rules.features import Features
    from coachloop.judge.rules.text import Message

    box = "╭──────────────╮\n│ {mark}  Shell npm install │\n╰──────────────╯"
    running = "✦ Installing into a local venv instead.\n\n" + box.format(mark="⊷")
    done = "✦ Installed into a local venv.\n\n" + box.format(mark="✔")
    assert harness.running_at_end(running) and Features(Message(running)).ongoing_tail
    assert not harness.running_at_end(done)
    assert not harness.running_at_end(box.format(mark="⊷") + "\n\nAll 12 tests pass.")
