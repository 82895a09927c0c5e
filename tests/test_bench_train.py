"""The learned scorer: training, grouped folds, breakdowns and the shipped weights."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from coachloop.bench import train
from coachloop.bench.data import BenchRow
from coachloop.bench.groups import agent_name, breakdown, language, source_repo
from coachloop.cli import cli
from coachloop.core.judge_input import JudgeInput
from coachloop.judge.rules.scorer import WEIGHTS_FILE, WORDING_DESCRIPTION, Scorer, default_scorer


def _row(i: int, *, source: str | None = None, text: str = "x", route: str = "deliver") -> BenchRow:
    gold = "status" if route == "continue" else "completion"
    return BenchRow(
        id=f"r{i}",
        item=JudgeInput(text=text),
        gold_type=gold,  # type: ignore[arg-type]
        gold_route=route,  # type: ignore[arg-type]
        source=source,
    )


def _example(i: int, on: set[str], route: str, group: str) -> train.Example:
    return train.Example(_row(i, route=route), frozenset(on), False, group, 1.0)


def test_fit_learns_which_signal_means_continue() -> None:
    data = [_example(i, {"ongoing_end"}, "continue", f"g{i % 5}") for i in range(20)]
    data += [_example(100 + i, {"evidence"}, "deliver", f"g{i % 5}") for i in range(20)]
    weights, bias = train.fit(data)
    assert weights["ongoing_end"] > 1.0
    assert weights["evidence"] < -1.0
    scorer = Scorer(weights, bias, 0.7)
    assert scorer.probability({"ongoing_end"}) > 0.8
    assert scorer.probability({"evidence"}) < 0.2
    assert scorer.explain({"ongoing_end", "evidence"}, toward_continue=True) == [
        "it ends announcing work still to do"
    ]


@pytest.mark.parametrize("seed", [None, 1, 2])
def test_folds_keep_each_group_on_one_side(seed: int | None) -> None:
    data = [_example(i, {"a"}, "deliver", f"repo{i % 7}") for i in range(40)]
    fold_of = train.folds(data, 3, seed)
    by_group: dict[str, set[int]] = {}
    for ex, fold in zip(data, fold_of, strict=True):
        by_group.setdefault(ex.group, set()).add(fold)
    assert all(len(folds) == 1 for folds in by_group.values())
    assert len(set(fold_of)) == 3
    assert fold_of == train.folds(data, 3, seed)  # deterministic


def test_seeded_folds_are_other_assignments() -> None:
    data = [_example(i, {"a"}, "deliver", f"repo{i}") for i in range(30)]
    assignments = {tuple(train.folds(data, 5, seed)) for seed in (None, 1, 2, 3)}
    assert len(assignments) == 4


def _said(i: int, words: set[str], route: str, group: str) -> train.Example:
    said = (frozenset(words), frozenset({"continue"} if route == "continue" else ()))
    return train.Example(_row(i, route=route), frozenset(), False, group, 1.0, said)


def test_words_are_learned_only_when_several_repositories_use_them() -> None:
    data = [_said(i, {"let", "me"}, "continue", f"g{i % 4}") for i in range(16)]
    data += [_said(100 + i, {"passed", "me"}, "deliver", f"g{i % 4}") for i in range(16)]
    data += [_said(200 + i, {"acmeproject"}, "continue", "one-repo") for i in range(8)]
    scorer = train.scorer_of(*train.fit(data), threshold=0.7)
    prose = scorer.wording["prose"]
    assert prose["let"] > 0.5 and prose["passed"] < -0.5
    assert "acmeproject" not in prose  # one repository's word is never learned
    assert scorer.wording["prompt"]["continue"] > 0
    said = (frozenset({"let", "me", "unseen"}), frozenset({"continue"}))
    lean = scorer.said_weight(said)
    assert lean == pytest.approx(prose["let"] + prose["me"] + scorer.wording["prompt"]["continue"])
    assert scorer.probability(set(), lean) > 0.7 > scorer.probability(set())
    assert scorer.explain(set(), toward_continue=True, lean=lean) == [WORDING_DESCRIPTION]
    assert scorer.explain(set(), toward_continue=False, lean=lean) == []
    again = Scorer.from_json(json.loads(json.dumps(scorer.to_json())))
    assert again.said_weight(said) == lean and again.wording == scorer.wording


def test_source_repo_agent_and_language() -> None:
    assert source_repo(_row(1, source="github:Owner/Repo@abc123:path/x.md (end of turn 2)")) == (
        "owner/repo"
    )
    assert (
        source_repo(_row(2, source="https://github.com/openai/codex/issues/42")) == "openai/codex"
    )
    assert source_repo(_row(3)) == "row:r3"
    row = BenchRow(id="a", item=JudgeInput(text="x"), gold_type="status", agent="Codex CLI")
    assert agent_name(row) == "codex"
    assert language(_row(4, text="我已经修复了这个问题，请测试。")) == "zh"
    assert language(_row(5, text="Я исправил ошибку, теперь всё работает.")) == "ru"
    assert language(_row(6, text="I fixed the bug and the tests pass now, see the log.")) == "en"


def test_breakdown_per_group() -> None:
    rows = [_row(1, route="deliver"), _row(2, route="deliver"), _row(3, route="continue")]
    table = breakdown(rows, ["continue", "deliver", "continue"], lambda r: "all")
    assert table["all"]["n"] == 3
    assert table["all"]["false_suppression"] == 0.5


def test_shipped_weights_were_trained_to_the_goal() -> None:
    scorer = default_scorer()
    oof = scorer.meta["out_of_fold"]
    assert scorer.threshold == train.THRESHOLD
    assert oof["rows"] >= 586 and scorer.meta["groups"] >= 100
    assert oof["false_suppression"] <= 0.05  # grouped out-of-fold on real messages
    assert scorer.meta["out_of_fold_seeds"]["false_suppression"] <= 0.05  # other folds too
    assert oof["route_accuracy"] > 0.84  # the named signals alone: 0.831
    assert len(scorer.weights) >= 20
    assert len(scorer.wording["prose"]) >= 500 and scorer.wording["prompt"]
    assert WEIGHTS_FILE.stat().st_size < 300_000  # small: read at the first judgement


def test_a_broken_weights_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "weights.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="cannot read the judge's weights"):
        Scorer.load(bad)


def _bench_file(tmp_path: Path) -> Path:
    lines: list[dict[str, Any]] = []
    for i in range(12):
        lines.append(
            {
                "id": f"c{i}",
                "text": "Now let me run the tests:",
                "type": "status",
                "source": f"github:o/r{i % 4}@1:x",
                "agent": "Claude Code",
            }
        )
        lines.append(
            {
                "id": f"q{i}",
                "text": "Which database should I use, Postgres or SQLite?",
                "type": "question",
                "source": f"github:o/r{i % 4}@1:x",
                "agent": "Cursor",
            }
        )
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def test_cli_group_by_source_repo(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["bench", "--group-by", "source-repo", "--json", str(_bench_file(tmp_path))]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["groups"] == 4 and report["rows"] == 24
    assert report["false_suppression"] == 0.0
    assert report["status_recall"] == 1.0


def test_cli_group_by_breaks_down_and_lists_misses(tmp_path: Path) -> None:
    path = _bench_file(tmp_path)
    # two rows labelled against their text: a "question" that narrates work under way
    wrong = [
        {"id": f"w{i}", "text": "Now let me run the tests:", "type": "question",
         "source": f"github:o/w{i}@1:x", "agent": "Codex CLI"}
        for i in range(2)
    ]  # fmt: skip
    path.write_text(path.read_text() + "".join(json.dumps(w) + "\n" for w in wrong))
    args = ["bench", "--group-by", "source-repo", "--by", "language", "--by", "agent"]
    result = CliRunner().invoke(cli, [*args, "--show-misses", "--json", str(path)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert sum(m["n"] for m in report["by_language"].values()) == report["rows"] == 26
    assert set(report["by_agent"]) == {"claude code", "cursor", "codex"}
    assert report["by_agent"]["codex"]["false_suppression"] == 1.0
    misses = report["misses"]
    assert {"w0", "w1"} <= {m["id"] for m in misses}
    assert len(misses) == round((1 - report["route_accuracy"]) * 26)
    assert misses[0]["gold_route"] == "deliver" and misses[0]["predicted_route"] == "continue"
    assert all(m["predicted_route"] != m["gold_route"] for m in misses)
    text = CliRunner().invoke(cli, [*args, "--show-misses", str(path)]).output
    assert "by language: n, route acc, false supp, rej recall" in text
    assert "routed against their label" in text and "w0" in text


def test_cli_breakdown_by_agent(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["bench", "--by", "agent", str(_bench_file(tmp_path))])
    assert result.exit_code == 0, result.output
    assert "rows.jsonl by agent" in result.output
    assert "claude code" in result.output and "cursor" in result.output


def _signals_of(text: str) -> set[str]:
    from coachloop.judge.rules.classify import classify
    from coachloop.judge.rules.features import Features
    from coachloop.judge.rules.text import Message
    from coachloop.judge.rules.vector import signals

    f = Features(Message(text))
    return signals(f, JudgeInput(text=text), classify(f, None, None))


def test_a_predicted_outcome_is_a_named_signal_and_explains_a_verdict() -> None:
    hedged = _signals_of("I've fixed the export script. The folder should now be named correctly.")
    assert {"predicts", "claim_predicts", "predicts_unproven"} <= hedged
    chinese = _signals_of("我已经修改了配置文件。这样修改后应该就能正常访问了。")
    assert "predicts" in chinese
    shown = _signals_of("Done: 12 passed in 0.4s. From now on the cache is cleared on start.")
    assert "predicts" in shown and "predicts_unproven" not in shown
    assert "predicts" not in _signals_of("Running the test suite now, then the linter.")
    scorer = default_scorer()
    assert scorer.weights["predicts_unproven"] > 0  # learned: it leans toward continue
    assert "it predicts the outcome of a claim it does not back" in scorer.explain(
        hedged, toward_continue=True, limit=len(hedged)
    )


def test_misses_lists_rows_routed_against_their_label() -> None:
    data = [_example(i, {"ongoing_end"}, "continue", f"g{i % 5}") for i in range(20)]
    data += [_example(100 + i, {"evidence"}, "deliver", f"g{i % 5}") for i in range(20)]
    odd = _example(999, {"evidence"}, "continue", "g0")  # labelled against its signals
    lines = train.misses([*data, odd], [], k=5)
    assert [line.split("\t")[0] for line in lines] == ["r999"]
    _, gold, p, signals = lines[0].split("\t")
    assert gold == "status" and p.startswith("P=0.") and signals.startswith("evidence-")


def test_the_curve_trades_false_suppression_for_rejection_recall() -> None:
    # scores spread over (0, 1): a lower threshold sends back more of both kinds
    data = [_example(i, {"ongoing_end"}, "continue", f"g{i % 5}") for i in range(20)]
    data += [_example(100 + i, {"evidence"}, "deliver", f"g{i % 5}") for i in range(20)]
    data += [
        _example(200 + i, {"ongoing_end", "evidence"}, "deliver", f"g{i % 5}") for i in range(4)
    ]
    data += [
        _example(300 + i, {"ongoing_end", "evidence"}, "continue", f"g{i % 5}") for i in range(4)
    ]
    points = train.curve(data, [], k=5, thresholds=(0.01, 0.99))
    assert [p["threshold"] for p in points] == [0.01, 0.99]
    low, high = points
    assert low["false_suppression"] is not None and high["false_suppression"] is not None
    assert low["false_suppression"] > high["false_suppression"]
    assert (low["status_recall"] or 0.0) > (high["status_recall"] or 0.0)


def test_the_curve_with_seeds_is_the_mean_over_fold_assignments() -> None:
    data = [_example(i, {"ongoing_end"}, "continue", f"g{i % 7}") for i in range(21)]
    data += [_example(100 + i, {"evidence"}, "deliver", f"g{i % 7}") for i in range(21)]
    data += [
        _example(200 + i, {"ongoing_end", "evidence"}, "deliver" if i % 2 else "continue", f"g{i}")
        for i in range(7)
    ]
    (point,) = train.curve(data, [], k=3, thresholds=(0.5,), seeds=2)
    runs = [
        train.summary(data, train.routes(data, train.out_of_fold(data, [], 3, seed), 0.5))
        for seed in (None, 1, 2)
    ]
    assert point["rows"] == len(data)
    assert point["rejection_recall"] is None  # no rejected completion among the rows
    for key in ("route_accuracy", "false_suppression", "status_recall"):
        values = [float(r[key] or 0.0) for r in runs]
        assert point[key] == round(sum(values) / 3, 3)
