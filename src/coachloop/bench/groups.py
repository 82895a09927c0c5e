"""How benchmark rows are grouped: by source repository, agent and language.

`source_repo` turns a row's `source` ("github:owner/repo@sha:path (...)", or an issue
URL) into "owner/repo", so cross-validation never puts messages of one repository on
both sides. `language` is the row's `lang` when given, else a guess from the script and
a few frequent words: good enough for a per-language breakdown, not a detector.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from coachloop.bench import metrics
from coachloop.bench.data import BenchRow

__all__ = ["agent_name", "breakdown", "language", "source_repo"]

_GITHUB = re.compile(r"github:([^@/\s]+/[^@/:\s]+)|https?://github\.com/([^/\s]+/[^/\s#?]+)")
_SCRIPTS = (
    ("ko", re.compile(r"[\uac00-\ud7af]")),
    ("ja", re.compile(r"[\u3040-\u30ff]")),
    ("zh", re.compile(r"[\u4e00-\u9fff]")),
    ("uk", re.compile(r"[іїєґ]", re.I)),
    ("ru", re.compile(r"[\u0400-\u04ff]")),
    ("vi", re.compile(r"[ơưđạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]", re.I)),
)
_WORDS = (
    ("de", re.compile(r"\b(?:ich|nicht|und|der|die|das|ist|wir|jetzt)\b", re.I)),
    ("es", re.compile(r"\b(?:el|los|las|está|para|que|con|ahora|también)\b", re.I)),
    ("fr", re.compile(r"\b(?:le|les|est|pour|avec|vous|maintenant|aussi|je)\b", re.I)),
    ("pt", re.compile(r"\b(?:você|não|está|para|agora|também|foi)\b", re.I)),
    ("it", re.compile(r"\b(?:il|gli|è|per|questo|anche|sono|della)\b", re.I)),
    ("id", re.compile(r"\b(?:yang|dan|untuk|dengan|ini|saya)\b", re.I)),
    ("tr", re.compile(r"\b(?:bir|ve|için|bu|ile|değil)\b|[ğş]")),
    ("pl", re.compile(r"\b(?:jest|nie|się|dla|oraz)\b|[łśżźć]")),
)
_ENGLISH = re.compile(r"\b(?:the|and|is|to|of|it|this|that|you|with)\b", re.I)


def source_repo(row: BenchRow) -> str:
    """The repository a row came from, or a group of its own when unknown."""
    match = _GITHUB.search(row.source or "")
    if match:
        return (match.group(1) or match.group(2)).lower()
    return row.source or f"row:{row.id}"


def agent_name(row: BenchRow) -> str:
    """The agent, normalised ("Codex CLI" and "Codex" are one agent)."""
    name = (row.agent or "unknown").strip().lower()
    for known in ("claude code", "codex", "gemini", "copilot", "cursor", "aider", "windsurf"):
        if known in name:
            return known
    return name


def language(row: BenchRow) -> str:
    """The row's language: its `lang`, else a guess from the text (English by default)."""
    if row.lang:
        return row.lang
    sample = row.item.text[:3000]
    for code, script in _SCRIPTS:
        if script.search(sample):
            return code
    best, hits = "en", max(len(_ENGLISH.findall(sample)), 3)
    for code, words in _WORDS:
        count = len(words.findall(sample))
        if count > hits:
            best, hits = code, count
    return best


def breakdown(
    rows: Sequence[BenchRow], predicted: Sequence[str], key: Callable[[BenchRow], str]
) -> dict[str, dict[str, float | int | None]]:
    """Route metrics per group of labelled rows (`predicted` holds their routes)."""
    groups: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        groups.setdefault(key(row), []).append(i)
    out: dict[str, dict[str, float | int | None]] = {}
    for name in sorted(groups, key=lambda g: (-len(groups[g]), g)):
        idx = groups[name]
        gold = [rows[i].gold_route for i in idx]
        pred = [predicted[i] for i in idx]
        out[name] = {
            "n": len(idx),
            "route_accuracy": metrics.route_accuracy(gold, pred),
            "false_suppression": metrics.false_suppression(gold, pred),
            "rejection_recall": metrics.rejection_recall([rows[i].rejected for i in idx], pred),
        }
    return out
