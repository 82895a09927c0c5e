"""The benchmark: metric functions on hand-made inputs, loading, running, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from coachloop.bench import metrics
from coachloop.bench.data import BenchDataError, find_bench_dir, load_rows
from coachloop.bench.runner import BenchRunError, run_file
from coachloop.cli import cli
from coachloop.core.judge_input import JudgeInput
from coachloop.core.verdict import MESSAGE_TYPES, MessageType, Verdict, route_for

# --- metrics ---------------------------------------------------------------------------


def test_route_metrics_known_values() -> None:
    gold = ["deliver", "deliver", "deliver", "continue"]
    pred = ["continue", "deliver", "deliver", "continue"]
    assert metrics.route_accuracy(gold, pred) == 0.75
    assert metrics.false_suppression(gold, pred) == pytest.approx(1 / 3)
    assert metrics.rejection_recall([True, True, False], ["continue", "deliver", "continue"]) == 0.5
    assert (
        metrics.status_recall(
            ["status", "status", "status", "question"],
            [False, True, False, False],
            ["continue", "continue", "deliver", "continue"],
        )
        == 0.5
    )


def test_metrics_without_a_base_are_none() -> None:
    assert metrics.route_accuracy([], []) is None
    assert metrics.false_suppression(["continue"], ["continue"]) is None
    assert metrics.rejection_recall([False], ["deliver"]) is None
    assert metrics.status_recall(["status"], [True], ["continue"]) is None
    assert metrics.type_macro_f1([], []) is None
    assert metrics.agreement([], []) is None
    assert metrics.percentile([], 50) is None


def test_mismatched_lengths_are_rejected() -> None:
    with pytest.raises(ValueError, match="same length"):
        metrics.route_accuracy(["deliver"], [])


def test_type_macro_f1_known_values() -> None:
    gold = ["question", "question", "status", "completion"]
    pred = ["question", "status", "status", "status"]
    # question 2/3, status 2·1/(2+2+0) = 1/2, completion 0; blocker and error absent.
    assert metrics.type_macro_f1(gold, pred) == pytest.approx((2 / 3 + 1 / 2 + 0) / 3)
    assert metrics.type_macro_f1(list(MESSAGE_TYPES), list(MESSAGE_TYPES)) == 1.0
    assert metrics.type_macro_f1(["error"], ["status"]) == 0.0


def test_confusion_matrix_rows_are_gold_columns_predicted() -> None:
    gold = ["question", "question", "status", "error", "!status"]
    pred = ["question", "status", "status", "question", "status"]
    assert metrics.confusion_matrix(gold, pred) == [
        [1, 1, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [1, 0, 0, 0, 0],
    ]


def test_agreement_with_not_status() -> None:
    expected = ["question", "!status", "!status", "error"]
    pred = ["question", "completion", "status", "blocker"]
    assert [metrics.agrees(e, p) for e, p in zip(expected, pred, strict=True)] == [
        True,
        True,
        False,
        False,
    ]
    assert metrics.agreement(expected, pred) == 0.5


def test_percentile_interpolates_linearly() -> None:
    assert metrics.percentile([4.0, 1.0, 3.0, 2.0], 50) == 2.5
    assert metrics.percentile([1.0, 2.0, 3.0, 4.0], 99) == pytest.approx(3.97)
    assert metrics.percentile([1.0, 2.0, 3.0, 4.0], 0) == 1.0
    assert metrics.percentile([5.0], 99) == 5.0
    with pytest.raises(ValueError):
        metrics.percentile([1.0], 101)


# --- a hand-made judge and hand-made files ----------------------------------------------


class FirstWordJudge:
    """Predicts the type named by the text's first word (else "status"); counts calls."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.calls = 0
        self.fail_on = fail_on

    def judge(self, item: JudgeInput) -> Verdict:
        self.calls += 1
        if self.fail_on and self.fail_on in item.text:
            raise RuntimeError("boom")
        word = item.text.split(":", 1)[0]
        kind: MessageType = next((t for t in MESSAGE_TYPES if t == word), "status")
        coaching = "continue" if kind == "status" else None
        return Verdict(kind, 0.7, f"first word {kind}", "rules", route_for(kind), coaching)


LABELLED: list[
    tuple[str, str, MessageType, bool]
] = [  # id, text (first word = prediction), gold type, rejected completion
    ("a", "question: which one?", "question", False),
    ("b", "status: do you want X or Y?", "question", False),
    ("c", "completion: 3 passed", "completion", False),
    ("d", "completion: should work now", "status", True),
    ("e", "status: I think it is fixed", "status", True),
    ("f", "status: working on it", "status", False),
    ("g", "blocker: next I will refactor", "status", False),
    ("h", "error: API 529", "error", False),
]


def _write(path: Path, rows: list[dict[str, Any] | str]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _labelled(path: Path) -> Path:
    rows: list[dict[str, Any] | str] = [
        {"id": i, "text": t, "type": k, "route": route_for(k), "rejected_completion": r}
        for i, t, k, r in LABELLED
    ]
    return _write(path, rows)


def _peer(path: Path) -> Path:
    rows: list[dict[str, Any] | str] = [
        {"text": "question: x", "expected": "question"},
        {"text": "status: x", "expected": "!status"},
        "",
        {"text": "completion: x", "expected": "!status"},
        {"text": "error: x", "expected": "blocker"},
    ]
    return _write(path, rows)


EXPECTED_LABELLED = {
    "n": 8,
    "route_accuracy": 5 / 8,
    "false_suppression": 1 / 4,
    "rejection_recall": 1 / 2,
    "status_recall": 1 / 2,
    "type_macro_f1": (2 / 3 + 4 / 7 + 2 / 3 + 0 + 1) / 5,
    "agreement": None,
    "misjudged": ["b", "d", "g"],
    "confusion": [
        [1, 1, 0, 0, 0],
        [0, 2, 1, 1, 0],
        [0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 1],
    ],
}


def _check_labelled(report: dict[str, Any]) -> None:
    for key, value in EXPECTED_LABELLED.items():
        assert report[key] == (pytest.approx(value) if isinstance(value, float) else value), key


def test_run_file_on_labelled_rows(tmp_path: Path) -> None:
    judge = FirstWordJudge()
    report = run_file(_labelled(tmp_path / "small.jsonl"), judge)
    assert judge.calls == len(LABELLED) + 1  # one warm-up call, then each row once
    data = report.to_dict()
    _check_labelled(data)
    assert data["labels"] == list(MESSAGE_TYPES)
    assert 0 <= data["latency_p50_ms"] <= data["latency_p99_ms"]
    assert data["sources"] == {"rules": len(LABELLED)}
    miss = data["misses"][1]
    assert (miss["id"], miss["gold"], miss["predicted"]) == ("d", "status", "completion")
    assert miss["text"] == "completion: should work now"


def test_run_file_on_peer_rows(tmp_path: Path) -> None:
    report = run_file(_peer(tmp_path / "peer.jsonl"), FirstWordJudge())
    assert report.agreement == 0.5
    assert report.route_accuracy is None and report.type_macro_f1 is None
    assert report.misjudged == ["peer:2", "peer:5"]
    assert report.confusion[0][0] == 1  # question -> question
    assert report.confusion[3][4] == 1  # blocker -> error
    assert sum(map(sum, report.confusion)) == 2  # the "!status" rows are left out


def test_load_rows_context_and_derived_route(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "ctx.jsonl",
        [{"text": "hi", "type": "status", "prompt": "p", "event": "StopFailure", "skill": "/s"}],
    )
    (row,) = load_rows(path)
    assert row.id == "ctx:1" and row.gold_route == "continue"
    assert row.item == JudgeInput(text="hi", prompt="p", skill="/s", event="StopFailure")


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("{nope", "not valid JSON"),
        ('["a"]', "JSON object"),
        ({"text": "x"}, "'type' or 'expected'"),
        ({"text": "x", "type": "done"}, "unknown type"),
        ({"text": 3, "type": "status"}, "'text' must be a string"),
        ({"text": "x", "type": "status", "event": "Crash"}, "unknown event"),
    ],
)
def test_bad_rows_name_file_and_line(tmp_path: Path, row: Any, message: str) -> None:
    path = _write(tmp_path / "bad.jsonl", [{"text": "x", "type": "status"}, row])
    with pytest.raises(BenchDataError, match=message) as info:
        load_rows(path)
    assert f"{path}:2" in str(info.value)


def test_a_raising_judge_names_the_row(tmp_path: Path) -> None:
    with pytest.raises(BenchRunError, match="row f: the judge raised RuntimeError"):
        run_file(_labelled(tmp_path / "x.jsonl"), FirstWordJudge(fail_on="working"))


def test_find_bench_dir(tmp_path: Path) -> None:
    bench = tmp_path / "with" / "shared" / "bench"
    bench.mkdir(parents=True)
    src = tmp_path / "with" / "main" / "src" / "pkg"
    src.mkdir(parents=True)
    elsewhere = tmp_path / "without" / "main"
    elsewhere.mkdir(parents=True)
    # nearest first: `with/shared` (3 levels up from src) beats any shared/bench that may
    # lie above the temporary directory (5 or more levels up from `elsewhere`)
    assert find_bench_dir(starts=[elsewhere, src], env={}) == bench
    assert find_bench_dir(starts=[src], env={"COACHLOOP_BENCH_DIR": str(src)}) == src
    outer = [p / "shared" / "bench" for p in tmp_path.parents if (p / "shared" / "bench").is_dir()]
    if outer:  # this machine keeps a shared/bench above its temporary files: that one is found
        assert find_bench_dir(starts=[elsewhere], env={}) == outer[0]
    else:
        with pytest.raises(BenchDataError, match="no benchmark directory found"):
            find_bench_dir(starts=[elsewhere], env={})


# --- the command ---------------------------------------------------------------------------


@pytest.fixture
def first_word(monkeypatch: pytest.MonkeyPatch) -> FirstWordJudge:
    judge = FirstWordJudge()
    monkeypatch.setattr("coachloop.cli.judge_cmd.build_judge", lambda name=None: judge)
    return judge


def invoke(args: list[str]) -> Any:
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def test_bench_json_on_given_files(first_word: FirstWordJudge, tmp_path: Path) -> None:
    labelled, peer = _labelled(tmp_path / "small.jsonl"), _peer(tmp_path / "peer.jsonl")
    result = invoke(["bench", "--json", str(labelled), str(peer)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["judge"] == "rules"
    assert [f["name"] for f in doc["files"]] == ["small.jsonl", "peer.jsonl"]
    assert doc["files"][0]["path"] == str(labelled)
    _check_labelled(doc["files"][0])
    assert doc["files"][1]["agreement"] == 0.5
    miss_keys = "id gold predicted gold_route predicted_route confidence reason text"
    assert set(doc["files"][0]["misses"][0]) == set(miss_keys.split())


def test_bench_table_and_misses(first_word: FirstWordJudge, tmp_path: Path) -> None:
    labelled = _labelled(tmp_path / "small.jsonl")
    plain = invoke(["bench", str(labelled)])
    assert plain.exit_code == 0, plain.output
    assert "small.jsonl" in plain.stdout
    assert "0.625" in plain.stdout and "0.250" in plain.stdout
    assert "gold (rows) x predicted (columns)" in plain.stdout
    assert "should work now" not in plain.stdout
    shown = invoke(["bench", "--show-misses", str(labelled)])
    assert "3 misjudged" in shown.stdout
    assert "completion: should work now" in shown.stdout
    assert "first word blocker" in shown.stdout


def test_bench_default_files_come_from_the_bench_dir(
    first_word: FirstWordJudge, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _labelled(tmp_path / "dev.jsonl")
    _peer(tmp_path / "peer_valor.jsonl")
    monkeypatch.setenv("COACHLOOP_BENCH_DIR", str(tmp_path))
    result = invoke(["bench", "--json"])
    assert result.exit_code == 0, result.output
    names = [f["name"] for f in json.loads(result.stdout)["files"]]
    assert names == ["dev.jsonl", "peer_valor.jsonl"]


def test_bench_missing_dir_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COACHLOOP_BENCH_DIR", str(tmp_path / "nope"))
    result = invoke(["bench"])
    assert result.exit_code == 2
    assert "COACHLOOP_BENCH_DIR" in result.stderr and "not a directory" in result.stderr
    monkeypatch.setenv("COACHLOOP_BENCH_DIR", str(tmp_path))
    empty = invoke(["bench"])
    assert empty.exit_code == 2
    assert "dev.jsonl" in empty.stderr


def test_bench_bad_file_exits_2(first_word: FirstWordJudge, tmp_path: Path) -> None:
    path = _write(tmp_path / "bad.jsonl", [{"text": "x"}])
    result = invoke(["bench", str(path)])
    assert result.exit_code == 2
    assert f"{path}:1" in result.stderr


def test_bench_json_shape_with_the_real_judge(tmp_path: Path) -> None:
    result = invoke(["bench", "--json", "--judge", "rules", str(_labelled(tmp_path / "s.jsonl"))])
    assert result.exit_code == 0, result.output
    (report,) = json.loads(result.stdout)["files"]
    assert report["n"] == len(LABELLED)
    for key in ("route_accuracy", "false_suppression", "rejection_recall", "status_recall"):
        assert 0.0 <= report[key] <= 1.0
    assert len(report["confusion"]) == 5 and all(len(r) == 5 for r in report["confusion"])
    assert sum(map(sum, report["confusion"])) == len(LABELLED)
    assert report["latency_p99_ms"] >= report["latency_p50_ms"] >= 0
