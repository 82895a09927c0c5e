"""Quality floors of the offline judge, measured on labelled sets with the bench code.

`tests/data/dev.jsonl` is a copy of the shared benchmark's development set;
`holdout.jsonl` and `blind.jsonl` were written independently of the rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coachloop.bench.runner import run_file
from coachloop.judge import make_judge

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def dev_report():  # type: ignore[no-untyped-def]
    return run_file(DATA / "dev.jsonl", make_judge())


def test_dev_floors(dev_report) -> None:  # type: ignore[no-untyped-def]
    r = dev_report
    assert r.n == 149
    assert r.false_suppression is not None and r.false_suppression <= 0.02
    assert r.rejection_recall is not None and r.rejection_recall >= 0.90
    assert r.status_recall is not None and r.status_recall >= 0.90
    assert r.route_accuracy is not None and r.route_accuracy >= 0.93
    assert r.type_macro_f1 is not None and r.type_macro_f1 >= 0.85


def test_every_dev_error_is_delivered(dev_report) -> None:  # type: ignore[no-untyped-def]
    errors_row = dev_report.labels.index("error")
    status_col = dev_report.labels.index("status")
    assert dev_report.confusion[errors_row][status_col] == 0


@pytest.mark.parametrize("name", ["holdout.jsonl", "blind.jsonl"])
def test_independent_set_floors(name: str) -> None:
    # Both sets were written by other authors without sight of the rules, and first scored
    # blind (holdout: route accuracy 0.856, false suppression 0.157; blind: 0.900 and
    # 0.074); their misses then pointed at general gaps. Since the judge learned from real
    # messages (2026-11-24), it delivers more of the unclear ones: rejection recall fell
    # from 1.00 to 0.84 / 0.82 while false suppression stayed 0. Floors sit just below.
    r = run_file(DATA / name, make_judge())
    assert r.false_suppression is not None and r.false_suppression <= 0.02
    assert r.route_accuracy is not None and r.route_accuracy >= 0.95
    assert r.rejection_recall is not None and r.rejection_recall >= 0.80
    assert r.status_recall is not None and r.status_recall >= 0.85


# The blind sets, each scored once before and once after a piece of the judge's work and
# never read in between (tests/data/README.md); regression guards, not targets to tune on:
# - blind2: 0.835 / 0.115 -> 0.869 / 0.104, when the judge learned from real messages;
# - blind3: 0.875 / 0.028 / rejection recall 0.721 -> 0.892 / 0.021 / 0.791, issue 10's
#   `predicts` signals;
# - blind7: 0.817 / 0.058 / 0.528 -> 0.833 / 0.045 / 0.583, the cues in eleven more
#   languages and the harnesses' own error lines;
# - blind8: 0.896 / 0.020 / 0.644 -> 0.904 / 0.027 / 0.644, the sure deliveries, the
#   languages and the stand-ins that the spent sets blind2-7 showed (read for that work,
#   they no longer measure anything: their floors are plain regression guards);
# - blind9: 0.963 / 0.000 / 0.867 before the session of 2026-11-24 (evening), written clearer
#   than real messages (none of its deliveries sent back): a guard that none ever is;
# - blind10: 0.858 / 0.073 / 0.711 before the session of 2026-11-24 (night), written to be as
#   untidy as real agents (whole-turn transcripts, 15% Chinese): harder than blind9; 0.871 /
#   0.067 / 0.733 blind after that session's first fixes, then read: 0.917 / 0.040 / 0.778;
# - blind11, blind12: validation sets by two more helpers, read for the fixes of that
#   session (not blind): 0.833 / 0.060 / 0.578 -> 0.879 / 0.033 / 0.689, and 0.863 / 0.067 /
#   0.644 -> 0.904 / 0.033 / 0.689;
# - blind13: a fourth helper, never read: 0.858 / 0.053 / 0.600 with the judge of the session's
#   start, 0.863 / 0.053 / 0.600 after its fixes, 0.867 / 0.047 / 0.600 after the next session's,
#   0.879 / 0.033 / 0.622 after the forms blind18 and blind19 taught (2026-11-25);
# - blind14: a fifth helper, other agents, languages and topics, never read: 0.838 / 0.047 /
#   0.667 with the judge of the session's start (1fab70d), 0.833 / 0.047 / 0.644 at its end;
# - blind15, blind16: validation sets of that session (blind16 75% non-English), read for its
#   fixes: 0.883 / 0.053 / 0.733 -> 0.900 / 0.027 / 0.733, and 0.854 / 0.073 / 0.578 -> 0.908 /
#   0.020 / 0.689;
# - blind17: a sixth helper, never read: 0.925 / 0.040 / 0.867 with the judge of 2038920,
#   the same after the forms blind18 and blind19 taught;
# - blind18, blind19: validation sets of that session, read for its fixes: 0.912 / 0.066 /
#   0.821 -> 0.950 / 0.016 / 0.821, and 0.867 / 0.068 / 0.583 -> 0.912 / 0.025 / 0.694;
# - blind20, blind23, blind25: three more helpers, never read: 0.921 / 0.041 / 0.750 ->
#   0.917 / 0.041 / 0.725, 0.950 / 0.029 / 0.850 both times, 0.871 / 0.059 / 0.625 -> 0.875 /
#   0.053 / 0.625 (the judge of 3a11ec1 -> the session's end);
# - blind21, blind22, blind24: validation sets of that session, read for its fixes: 0.896 /
#   0.053 / 0.675 -> 0.929 / 0.006 / 0.675, 0.875 / 0.127 / 0.900 -> 0.971 / 0.015 / 0.900,
#   0.892 / 0.059 / 0.700 -> 0.929 / 0.006 / 0.700;
# - blind26, 29, 31, 33, 35, 37: six more helpers (2026-11-25, the session after), never read:
#   0.925 / 0.024 / 0.825 -> 0.942 / 0.024 / 0.875, 0.908 / 0.035 / 0.800 -> 0.921 / 0.035 /
#   0.825, 0.925 / 0.018 / 0.775 both times, 0.879 / 0.012 / 0.525 both times, 0.921 / 0.029 /
#   0.750 -> 0.929 / 0.029 / 0.775, 0.925 / 0.012 / 0.800 -> 0.933 / 0.012 / 0.825 (the judge of
#   c711be7 -> the session's end); blind33 and blind37 caught two regressions of the session in
#   aggregate, mended without reading them;
# - blind27, 28, 30, 32, 34, 36: that session's validation sets, read for its fixes: 0.892 /
#   0.041 / 0.650 -> 0.958 / 0.000 / 0.800, 0.879 / 0.035 / 0.725 -> 0.946 / 0.000 / 0.850,
#   0.908 / 0.029 / 0.750 -> 0.963 / 0.000 / 0.900, 0.908 / 0.012 / 0.750 -> 0.933 / 0.000 /
#   0.750, 0.917 / 0.018 / 0.675 -> 0.958 / 0.000 / 0.775, 0.908 / 0.018 / 0.550 -> 0.925 /
#   0.000 / 0.575;
# - blind40, 41, 44, 47, 50, 55: six more helpers (2026-11-25, the session after), never read:
#   0.904 / 0.035 / 0.675 -> 0.904 / 0.029 / 0.650, 0.892 / 0.071 / 0.950 -> 0.900 / 0.065 /
#   0.975, 0.917 / 0.029 / 0.825 -> 0.925 / 0.018 / 0.825, 0.942 / 0.029 / 0.975 both times,
#   0.892 / 0.024 /
#   0.725 -> 0.896 / 0.018 / 0.725, 0.900 / 0.065 / 0.875 both times (the judge of 769d88b ->
#   the session's end);
# - blind38, 39, 42, 43, 45, 46, 48, 49, 51–54, 56–59: that session's validation sets, read for its
#   fixes: 0.912 / 0.035 / 0.850 -> 0.938 / 0.000 / 0.850, 0.883 / 0.047 / 0.825 -> 0.917 /
#   0.000 / 0.825, 0.938 / 0.018 / 0.825 -> 0.950 / 0.000 / 0.825, 0.842 / 0.035 / 0.775 ->
#   0.917 / 0.000 / 0.975, 0.892 / 0.059 / 0.750 -> 0.933 / 0.000 / 0.750, 0.917 / 0.047 /
#   0.925 -> 0.942 / 0.018 / 0.950, 0.946 / 0.024 / 0.875 -> 0.963 / 0.000 / 0.875, 0.892 /
#   0.041 / 0.800 -> 0.917 / 0.006 / 0.800, 0.954 / 0.029 / 1.000 -> 0.971 / 0.006 / 1.000,
#   0.896 / 0.047 / 0.900 -> 0.921 / 0.012 / 0.900, 0.925 / 0.065 / 0.925 -> 0.958 / 0.018 /
#   0.925 (blind53), 0.925 / 0.018 / 0.850 -> 0.938 / 0.000 / 0.850 (blind54), 0.933 / 0.047 /
#   0.950 -> 0.967 / 0.000 / 0.950 (blind56), 0.925 / 0.035 / 0.825 -> 0.938 / 0.018 / 0.825
#   (blind57), 0.896 / 0.076 / 0.875 -> 0.942 / 0.018 / 0.900 (blind58), 0.938 / 0.006 / 0.775
#   both times (blind59).
# - blind60–63: validation sets of the session after (2026-11-25, third), read for its
#   fixes (runs shown as agents paste them, blockers and cut-off clauses in more forms):
#   0.950 / 0.035 / 0.875 -> 0.971 / 0.012 / 0.900, 0.838 / 0.024 / 0.500 -> 0.867 / 0.000 /
#   0.550, 0.879 / 0.047 / 0.650 -> 0.896 / 0.024 / 0.650, 0.933 / 0.029 / 0.900 -> 0.954 /
#   0.006 / 0.925.
# - blind66–69: more validation sets of that session, read for its later fixes (next steps
#   suggested or left to the human, "I'll … once you …", cut-offs in more languages;
#   blind68 written adversarially: every deliverable row worded like progress), scored
#   with the judge of ae0461a then at the end: 0.929 / 0.018 / 0.775 -> 0.938 / 0.012 /
#   0.800, 0.921 / 0.029 / 0.800 -> 0.933 / 0.012 / 0.800, 0.738 / 0.182 / 0.625 -> 0.858 /
#   0.029 / 0.625, 0.904 / 0.047 / 0.750 -> 0.929 / 0.012 / 0.750.
# - blind71–74: a third group of that session's validation sets, read for its last fixes
#   (a question left without its mark, requests in de/es/ko, a training run's end shown,
#   "I'll go on once …" in fr and zh; blind72 adversarial like blind68), scored with the
#   judge of 42e554f then at the end: 0.942 / 0.041 / 0.875 -> 0.954 / 0.024 / 0.875,
#   0.787 / 0.124 / 0.600 -> 0.833 / 0.059 / 0.600, 0.904 / 0.012 / 0.675 -> 0.908 / 0.012 /
#   0.700,
#   0.896 / 0.024 / 0.650 -> 0.908 / 0.006 / 0.650.
# - blind64, 65, 70, 75: four more helpers of that session, never read (blind75 with half its
#   rows hard near-misses): 0.938 / 0.024 / 0.800 -> 0.946 / 0.012 / 0.800, 0.908 / 0.029 /
#   0.675 both times, 0.933 / 0.024 / 0.825 both times, 0.954 / 0.024 / 0.900 -> 0.958 /
#   0.018 / 0.900 (the judge of 40ff6f1 -> the session's end).
# - blind76–78: the fourth session's validation sets, read for its fixes (failures printed
#   by the last command shown; blind77 adversarial like blind68), scored with the judge of
#   a1bf203 first: 0.900 / 0.006 / 0.525, 0.875 / 0.059 / 0.675, 0.904 / 0.024 / 0.675.
# - blind80, 81, 83, 84: more of that session's validation sets (IDE chat exports; near-miss
#   twins; terse terminal agents; adversarial in ru, uk, pl, tr, vi, id, nl), scored with
#   the judge of a1bf203 first. At the session's end, all seven read sets: 0.900 / 0.006 /
#   0.525 -> 0.933 / 0.006 / 0.700, 0.875 / 0.059 / 0.675 -> 0.938 / 0.012 / 0.850, 0.904 /
#   0.024 / 0.675 -> 0.938 / 0.006 / 0.800, 0.904 / 0.029 / 0.675 -> 0.942 / 0.006 / 0.800,
#   0.896 / 0.024 / 0.625 -> 0.933 / 0 / 0.750, 0.892 / 0.035 / 0.575 -> 0.938 / 0.006 /
#   0.725, 0.825 / 0.012 / 0.325 -> 0.854 / 0 / 0.450.
# - blind79, 82, 85: that session's never-read sets, scored with the judge of a1bf203 and at
#   the end only: 0.908 / 0.041 / 0.700 -> 0.917 / 0.035 / 0.725, 0.929 / 0.029 / 0.750 ->
#   0.933 / 0.024 / 0.750, 0.954 / 0 / 0.850 -> 0.958 / 0 / 0.875 (one row of blind85 moved
#   by the last change was seen by its id in a diff, not read).
# (file, rows, false suppression at most, route accuracy at least, rejection recall at least)
BLIND_FLOORS = [
    ("blind2.jsonl", 260, 0.11, 0.86, None),
    ("blind3.jsonl", 240, 0.03, 0.88, 0.77),
    ("blind7.jsonl", 240, 0.05, 0.82, 0.55),
    ("blind8.jsonl", 240, 0.02, 0.90, 0.64),
    ("blind9.jsonl", 240, 0.0, 0.95, 0.84),
    ("blind10.jsonl", 240, 0.02, 0.93, 0.75),
    ("blind11.jsonl", 240, 0.03, 0.87, 0.68),
    ("blind12.jsonl", 240, 0.02, 0.91, 0.68),
    ("blind13.jsonl", 240, 0.05, 0.86, 0.58),
    ("blind14.jsonl", 240, 0.05, 0.82, 0.62),
    ("blind15.jsonl", 240, 0.03, 0.89, 0.71),
    ("blind16.jsonl", 240, 0.03, 0.90, 0.66),
    ("blind17.jsonl", 240, 0.05, 0.91, 0.84),
    ("blind18.jsonl", 240, 0.03, 0.93, 0.80),
    ("blind19.jsonl", 240, 0.04, 0.90, 0.66),
    ("blind20.jsonl", 240, 0.05, 0.90, 0.70),
    ("blind21.jsonl", 240, 0.02, 0.92, 0.65),
    ("blind22.jsonl", 240, 0.03, 0.96, 0.85),
    ("blind23.jsonl", 240, 0.04, 0.94, 0.82),
    ("blind24.jsonl", 240, 0.02, 0.92, 0.67),
    ("blind25.jsonl", 240, 0.06, 0.86, 0.60),
    ("blind26.jsonl", 240, 0.03, 0.93, 0.84),
    ("blind27.jsonl", 240, 0.01, 0.94, 0.77),
    ("blind28.jsonl", 240, 0.01, 0.93, 0.82),
    ("blind29.jsonl", 240, 0.05, 0.91, 0.79),
    ("blind30.jsonl", 240, 0.01, 0.95, 0.87),
    ("blind31.jsonl", 240, 0.03, 0.91, 0.74),
    ("blind32.jsonl", 240, 0.01, 0.92, 0.72),
    ("blind33.jsonl", 240, 0.02, 0.86, 0.49),
    ("blind34.jsonl", 240, 0.01, 0.94, 0.74),
    ("blind35.jsonl", 240, 0.04, 0.91, 0.74),
    ("blind36.jsonl", 240, 0.01, 0.91, 0.54),
    ("blind37.jsonl", 240, 0.02, 0.92, 0.79),
    ("blind38.jsonl", 240, 0.01, 0.92, 0.82),
    ("blind39.jsonl", 240, 0.01, 0.90, 0.79),
    ("blind40.jsonl", 240, 0.04, 0.89, 0.62),
    ("blind41.jsonl", 240, 0.08, 0.89, 0.94),
    ("blind42.jsonl", 240, 0.01, 0.94, 0.79),
    ("blind43.jsonl", 240, 0.01, 0.90, 0.94),
    ("blind44.jsonl", 240, 0.03, 0.91, 0.79),
    ("blind45.jsonl", 240, 0.01, 0.92, 0.72),
    ("blind46.jsonl", 240, 0.03, 0.93, 0.92),
    ("blind47.jsonl", 240, 0.04, 0.93, 0.94),
    ("blind48.jsonl", 240, 0.01, 0.95, 0.84),
    ("blind49.jsonl", 240, 0.02, 0.90, 0.77),
    ("blind50.jsonl", 240, 0.03, 0.88, 0.69),
    ("blind51.jsonl", 240, 0.02, 0.96, 0.97),
    ("blind52.jsonl", 240, 0.03, 0.91, 0.87),
    ("blind53.jsonl", 240, 0.03, 0.94, 0.89),
    ("blind54.jsonl", 240, 0.01, 0.92, 0.82),
    ("blind55.jsonl", 240, 0.08, 0.89, 0.84),
    ("blind56.jsonl", 240, 0.01, 0.95, 0.92),
    ("blind57.jsonl", 240, 0.03, 0.92, 0.79),
    ("blind58.jsonl", 240, 0.03, 0.93, 0.87),
    ("blind59.jsonl", 240, 0.02, 0.92, 0.74),
    ("blind60.jsonl", 240, 0.03, 0.96, 0.87),
    ("blind61.jsonl", 240, 0.01, 0.85, 0.52),
    ("blind62.jsonl", 240, 0.04, 0.88, 0.62),
    ("blind63.jsonl", 240, 0.02, 0.94, 0.89),
    ("blind66.jsonl", 240, 0.03, 0.92, 0.74),
    ("blind67.jsonl", 240, 0.03, 0.92, 0.77),
    ("blind68.jsonl", 240, 0.04, 0.84, 0.59),
    ("blind69.jsonl", 240, 0.03, 0.91, 0.72),
    ("blind71.jsonl", 240, 0.04, 0.94, 0.84),
    ("blind72.jsonl", 240, 0.07, 0.82, 0.57),
    ("blind73.jsonl", 240, 0.03, 0.89, 0.67),
    ("blind74.jsonl", 240, 0.02, 0.89, 0.62),
    ("blind64.jsonl", 240, 0.03, 0.93, 0.77),
    ("blind65.jsonl", 240, 0.04, 0.89, 0.64),
    ("blind70.jsonl", 240, 0.04, 0.92, 0.79),
    ("blind75.jsonl", 240, 0.03, 0.94, 0.87),
    ("blind76.jsonl", 240, 0.02, 0.92, 0.67),
    ("blind77.jsonl", 240, 0.02, 0.92, 0.82),
    ("blind78.jsonl", 240, 0.02, 0.92, 0.77),
    ("blind80.jsonl", 240, 0.02, 0.93, 0.77),
    ("blind81.jsonl", 240, 0.01, 0.92, 0.72),
    ("blind83.jsonl", 240, 0.02, 0.91, 0.62),
    ("blind84.jsonl", 240, 0.01, 0.83, 0.37),
    ("blind79.jsonl", 240, 0.04, 0.90, 0.70),
    ("blind82.jsonl", 240, 0.03, 0.92, 0.72),
    ("blind85.jsonl", 240, 0.01, 0.94, 0.82),
]


@pytest.mark.parametrize(("name", "rows", "suppression", "accuracy", "rejection"), BLIND_FLOORS)
def test_blind_set_floors(
    name: str, rows: int, suppression: float, accuracy: float, rejection: float | None
) -> None:
    r = run_file(DATA / name, make_judge())
    assert r.n == rows
    assert r.false_suppression is not None and r.false_suppression <= suppression
    assert r.route_accuracy is not None and r.route_accuracy >= accuracy
    if rejection is not None:
        assert r.rejection_recall is not None and r.rejection_recall >= rejection
