"""Judging many messages at once: batch JSONL judging and the labelled benchmark.

`batch` judges a JSONL stream line by line (used by `coachloop judge --batch`);
`data` loads benchmark files, `metrics` holds the pure metric functions and `runner`
times a judge over the rows and assembles per-file reports (`coachloop bench`).
"""
