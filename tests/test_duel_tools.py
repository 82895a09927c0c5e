"""The coach tools on real projects: test command detection, real test runs, a hanging
suite killed with its children, the diff and its cut, JSON checks, and the tools' own
command line (what the Claude Code coach runs)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from coachloop.duel import testcmd
from coachloop.duel.tools import DIFF_LIMIT, CoachTools
from duel_support import PY, fast_pytest, git, make_project

FAILING = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    fast_pytest(monkeypatch)


@pytest.mark.parametrize(
    ("files", "runner", "argv_tail"),
    [
        ({"pyproject.toml": ""}, "pytest", ("-m", "pytest")),
        ({"src/test_x.py": ""}, "pytest", ("-m", "pytest")),
        ({"package.json": '{"scripts": {"test": "jest"}}'}, "npm", ("npm", "test")),
        ({"go.mod": "module x"}, "go", ("go", "test", "./...")),
        ({"Cargo.toml": ""}, "cargo", ("cargo", "test")),
        ({"Makefile": "build:\n\tcc x.c\ntest: build\n\t./t\n"}, "make", ("make", "test")),
    ],
)
def test_detection(
    tmp_path: Path, files: dict[str, str], runner: str, argv_tail: tuple[str, ...]
) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = testcmd.detect(tmp_path)
    assert found is not None and found.runner == runner
    joined = " ".join(found.argv)
    assert " ".join(argv_tail) in joined


def test_nothing_to_detect_means_the_tests_did_not_run(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"scripts": {"build": "tsc"}}')
    (tmp_path / "Makefile").write_text("all:\n\techo\n")
    assert testcmd.detect(tmp_path) is None
    result = CoachTools(tmp_path).run_all_tests()
    assert not result.ok and result.data["status"] == "not_run"


def test_the_project_interpreter_is_preferred(tmp_path: Path) -> None:
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.symlink_to(PY)
    (tmp_path / "setup.py").write_text("")
    found = testcmd.detect(tmp_path)
    assert found is not None and found.argv[0] == str(python)


def test_failing_tests_are_named_from_a_real_run(tmp_path: Path) -> None:
    project = make_project(
        tmp_path,
        files={"calc.py": "def add(a, b):\n    return a - b\n", "tests/test_calc.py": FAILING},
    )
    tools = CoachTools(project)
    result = tools.run_all_tests()
    assert not result.ok and result.data["status"] == "failed"
    assert result.data["failing"] == [["tests/test_calc.py::test_add", "assert -1 == 5"]]
    assert "1 failed" in result.text
    one = tools.run_specific_tests(["tests/test_calc.py::test_add"])
    assert one.data["command"].endswith("tests/test_calc.py::test_add")
    assert one.data["status"] == "failed"
    (project / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    assert tools.run_all_tests().ok
    assert not any(p.name == "__pycache__" for p in project.rglob("*"))  # tree kept clean


def test_other_runners_failure_lines() -> None:
    go = "--- FAIL: TestAdd (0.00s)\n    add_test.go:9: got 1\nFAIL\n"
    cargo = "test tests::adds ... FAILED\ntest tests::subs ... ok\n"
    jest = "  ✕ adds numbers (3 ms)\n  ✓ subtracts\n"
    assert testcmd.failing_tests(go) == (("TestAdd", ""),)
    assert testcmd.failing_tests(cargo) == (("tests::adds", ""),)
    assert testcmd.failing_tests(jest) == (("adds numbers", ""),)


def test_a_hanging_suite_is_killed_with_its_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    script = tmp_path / "hang.py"
    script.write_text(
        "import subprocess, sys, time, pathlib\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"pathlib.Path({str(pid_file)!r}).write_text(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    tools = CoachTools(tmp_path, test_command=testcmd.from_string(f"{PY} {script}"), timeout=1.5)
    started = time.monotonic()
    result = tools.run_all_tests()
    assert time.monotonic() - started < 15
    assert result.data["status"] == "timeout" and not result.ok
    assert "TIMED OUT" in result.text
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        # a killed child may linger as a zombie of its killed parent until reaped by init
        state = Path(f"/proc/{child}/stat")
        if state.exists() and state.read_text().split(") ")[1].startswith("Z"):
            break
        time.sleep(0.05)
    else:
        pytest.fail("the hanging suite's child process survived the timeout")


def test_a_missing_test_program_is_an_error(tmp_path: Path) -> None:
    tools = CoachTools(tmp_path, test_command=testcmd.from_string("/nonexistent/runner"))
    result = tools.run_all_tests()
    assert result.data["status"] == "error" and "Could not run" in result.text


def test_diff_shows_changes_and_new_files_and_cuts_long_diffs(tmp_path: Path) -> None:
    project = make_project(tmp_path, files={"calc.py": "x = 1\n"})
    base = git(project, "rev-parse", "HEAD").strip()
    tools = CoachTools(project, base=base)
    assert "No changes since" in tools.diff_changes().text
    (project / "calc.py").write_text("x = 2\n")
    (project / "new_module.py").write_text("y = 3\n")
    (project / ".coachloop" / "duel").mkdir(parents=True)
    (project / ".coachloop" / "duel" / "report.json").write_text("{}")
    text = tools.diff_changes().text
    assert "-x = 1" in text and "+x = 2" in text and "+y = 3" in text
    assert "new_module.py" in text and ".coachloop" not in text
    git(project, "add", "-A")
    git(project, "commit", "-qm", "player commit")  # committed work still shows
    (project / "big.txt").write_text("".join(f"line {i}\n" for i in range(3000)))
    long = tools.diff_changes()
    assert "+x = 2" in long.text
    assert long.data["diff_chars"] > DIFF_LIMIT
    assert f"showing {DIFF_LIMIT:,} of" in long.text
    assert len(long.text) < DIFF_LIMIT + 1000
    assert "Not a git repository" in CoachTools(tmp_path).diff_changes().text


def test_validate_json_schema(tmp_path: Path) -> None:
    tools = CoachTools(tmp_path)
    good = {
        "task_id": "T",
        "turn": 1,
        "files_modified": [],
        "tests_written": [],
        "implementation_notes": "n",
    }
    (tmp_path / "good.json").write_text(json.dumps(good))
    (tmp_path / "bad.json").write_text("{oops")
    (tmp_path / "wrong.json").write_text(json.dumps(dict(good, turn="one")))
    assert tools.validate_json_schema("good.json").ok
    assert not tools.validate_json_schema("good.json", expected_keys=["concerns"]).ok
    assert "not valid JSON" in tools.validate_json_schema("bad.json").text
    assert "$.turn: expected integer" in tools.validate_json_schema("wrong.json").text
    assert "not found" in tools.validate_json_schema("missing.json").text
    (tmp_path / "schema.json").write_text('{"type": "object", "required": ["x"]}')
    assert not tools.validate_json_schema("good.json", "schema.json").ok
    assert not tools.validate_json_schema("good.json", "decision").ok


def test_coverage_without_a_coverage_tool_says_so(tmp_path: Path) -> None:
    project = make_project(tmp_path, files={"tests/test_ok.py": "def test_ok():\n    pass\n"})
    result = CoachTools(project).check_coverage()
    assert not result.ok and "pytest-cov is not installed" in result.text
    custom = CoachTools(project, test_command=testcmd.from_string("make check"))
    assert "unavailable" in custom.check_coverage().text


def test_the_tools_command_line(tmp_path: Path) -> None:
    project = make_project(
        tmp_path,
        files={"calc.py": "def add(a, b):\n    return a - b\n", "tests/test_calc.py": FAILING},
    )
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")

    def tool(name: str) -> subprocess.CompletedProcess[str]:
        argv = [PY, "-m", "coachloop.duel.tools", name, "--project", str(project)]
        return subprocess.run(
            argv, capture_output=True, text=True, env=env, timeout=60, check=False
        )

    run = tool("run_all_tests")
    assert run.returncode == 1 and "FAILED tests/test_calc.py::test_add" in run.stdout
    (project / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    diff = tool("diff_changes")
    assert diff.returncode == 0 and "+    return a + b" in diff.stdout


OUTCOMES = """\
import pytest


class TestCalc:
    @pytest.mark.parametrize("n", [1, 2])
    def test_param(self, n):
        assert n in (1, 2)


def test_fails():
    assert 1 == 2


@pytest.mark.xfail
def test_known():
    assert False


@pytest.mark.skip(reason="later")
def test_later():
    pass
"""


def test_per_test_outcomes_come_from_the_runners_report(tmp_path: Path) -> None:
    project = make_project(tmp_path, files={"tests/test_outcomes.py": OUTCOMES})
    (project / "pytest.py").write_text("print('99 passed')\nraise SystemExit(0)\n")  # ignored
    result = CoachTools(project).run_all_tests()
    assert result.data["status"] == "failed"
    assert result.data["outcomes"] == {
        "tests/test_outcomes.py::TestCalc::test_param[1]": "passed",
        "tests/test_outcomes.py::TestCalc::test_param[2]": "passed",
        "tests/test_outcomes.py::test_fails": "failed",
        "tests/test_outcomes.py::test_known": "xfailed",
        "tests/test_outcomes.py::test_later": "skipped",
    }
    assert result.data["collected"] == list(result.data["outcomes"])
    assert "Runner's report: 2 passed, 1 failed, 1 skipped, 1 xfailed (failed)" in result.text


def test_collected_tests_that_never_ran_are_incomplete(tmp_path: Path) -> None:
    conftest = "def pytest_runtestloop(session):\n    return True  # runs nothing\n"
    project = make_project(
        tmp_path, files={"conftest.py": conftest, "tests/test_ok.py": "def test_ok():\n    pass\n"}
    )
    result = CoachTools(project).run_all_tests()
    assert result.data["status"] == "incomplete" and not result.ok
    assert "1 test(s) were collected but 1 did not run" in result.data["note"]


def test_a_runner_without_a_report_is_not_a_pass(tmp_path: Path) -> None:
    script = tmp_path / "t.py"
    script.write_text("print('12 passed')\n")
    silent = CoachTools(tmp_path, test_command=testcmd.from_string(f"{PY} {script}"))
    result = silent.run_all_tests()
    assert result.data["status"] == "not_run" and result.data["exit_code"] == 0
    assert "cannot be verified" in result.data["note"]
    junit = (
        '<testsuite><testcase classname="calc" name="adds"/>'
        '<testcase classname="calc" name="subs"><failure message="1 != 2"/></testcase>'
        "</testsuite>"
    )
    script.write_text(f"import pathlib\npathlib.Path('out/r.xml').write_text({junit!r})\n")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "r.xml").write_text("<stale/>")  # deleted before every run
    reporting = testcmd.from_string(f"{PY} {script}", report="out/r.xml")
    ran = CoachTools(tmp_path, test_command=reporting).run_all_tests()
    assert ran.data["status"] == "failed"
    assert ran.data["outcomes"] == {"calc::adds": "passed", "calc::subs": "failed"}
    assert ran.data["failing"] == [["calc::subs", "1 != 2"]]


def test_the_runner_round_trips_through_the_tools_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    for argv, runner in (
        ((PY, "-m", "pytest", "-q"), "pytest"),
        (("/x/node_modules/vitest/vitest.mjs", "run"), "vitest"),
        (("/x/node_modules/jest/bin/jest.js",), "jest"),
    ):
        again = testcmd.from_string(shlex.join(argv))
        assert again.runner == runner and again.argv == argv and again.runner_args in ((), ("-q",))
    # The person's own PYTHONPATH (never the player's) reaches the isolated interpreter.
    project = make_project(
        tmp_path,
        files={
            "lib/calc.py": "X = 1\n",
            "tests/test_x.py": "from calc import X\n\n\ndef test_x():\n    assert X == 1\n",
        },
    )
    monkeypatch.setenv("PYTHONPATH", str(project / "lib"))
    assert CoachTools(project).run_all_tests().data["status"] == "passed"
