"""The core types every layer shares, at the bottom of the import graph.

Standard library only, and nothing here imports any other coachloop package: events
(`events`), what the judge is given (`judge_input`), what it returns (`verdict`), and a
session's state with the decision taken at a stop (`session`). Import from the
submodules; this package's `__init__` stays empty so the Stop hook loads only what it uses.
"""
