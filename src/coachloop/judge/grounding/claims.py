"""What a final message claims that a turn's record can confirm or refute.

- `tests_pass`: the agent says in its own words (outside code and quotes) that tests
  pass ("All tests pass now.", "the suite is green"), not negated or conditional
  ("not all tests pass", "once the tests pass");
- `shown`: test-runner summaries the message shows (pasted output, or counts in prose),
  read with `coachloop.evidence.extract`;
- `commit`: the agent says it committed ("Committed as a1b2c3d", "I committed the fix"),
  not negated or offered ("want me to commit?", "not committed yet");
- `hashes`: commit hashes the message cites (with commit words before them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from coachloop.core.verdict import Evidence, TestSummary
from coachloop.evidence import extract

__all__ = ["Claims", "read_claims"]

_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S)
_INLINE = re.compile(r"`[^`\n]*`")
_QUOTED = re.compile(r"\"[^\"\n]{1,200}\"|“[^”\n]{1,200}”")
_TESTS_PASS = re.compile(
    r"\btests?\s+(?:now\s+|all\s+|still\s+|again\s+)?(?:pass(?:es|ed|ing)?|succeed(?:s|ed)?|"
    r"(?:are|were|is)\s+(?:now\s+|all\s+|still\s+)?(?:passing|green|ok)|green)\b|"
    r"\bpass(?:es|ed)?\s+(?:all\s+)?(?:(?:the|its|my|\d+)\s+)?(?:\w+\s+)?tests?\b|"
    r"\b(?:test\s+suite|suite|test\s+run)\s+(?:is\s+|now\s+|was\s+)*(?:green|passing|passes|passed)\b|"
    r"\ball\s+green\b|\btests?:\s*(?:all\s+)?pass(?:ing|ed)?\b|"
    r"\balle tests (?:sind |laufen )?(?:grün|bestanden|durch)|\btodas las pruebas pasan\b|"
    r"\btous les tests passent\b",
    re.I,
)
# "committed" as a verb of the agent's report, not an adjective ("the committed config").
_COMMIT = re.compile(
    r"(?:^|[.!;:,]\s*|\b(?:i|i've|i have|we|we've|and|also|then|just|now|changes?|fix(?:es)?|"
    r"work|it|everything|all|was|were|is|are|been|has|have|got|and then)\s+)committed\b|"
    r"\bcommit(?:ted)?\s+(?:as|in|to|with)\b|"
    r"\b(?:made|created|pushed|added)\s+(?:a\s+|the\s+|one\s+)?commit\b|^\W*commit(?:ted)?:",
    re.I | re.M,
)
# A hash cited as a commit: commit words shortly before it (a bare hex id is no claim).
_HASH = re.compile(
    r"\b(?:commit(?:ted|s)?|sha|hash|head|rev(?:ision)?)\b[^\n]{0,40}?[`*(\s:\[]([0-9a-f]{7,40})\b",
    re.I,
)
# Words that, before a claim in the same clause, make it no claim at all.
_UNSAID = re.compile(
    r"\b(?:not|no|never|none|nothing|without|until|unless|once|if|whether|before|"
    r"ready to|want me to|shall i|should i|can|could|will|would|should|might|may|to be|"
    r"yet to|make sure|ensure|need to|needs to)\b|n't\b",
    re.I,
)
_CLAUSE_START = re.compile(r"[.!?;:\n]|\b(?:but|and|so|then)\b", re.I)


@dataclass(frozen=True, slots=True)
class Claims:
    """What the message claims (see the module docstring); quotes are the words."""

    tests_pass: str | None = None
    shown: tuple[TestSummary, ...] = ()
    commit: str | None = None
    hashes: tuple[str, ...] = ()

    @property
    def tests(self) -> bool:
        """The message claims passing tests, in words or by showing a passing run."""
        return self.tests_pass is not None or any(s.ok for s in self.shown)


def prose(text: str) -> str:
    """The agent's own words: fenced code, inline code and quoted strings removed."""
    out = _FENCE.sub("\n", text)
    out = _INLINE.sub("CODE", out)
    return _QUOTED.sub("QUOTE", out)


def _claim(pattern: re.Pattern[str], text: str) -> str | None:
    for m in pattern.finditer(text):
        before = text[max(0, m.start() - 60) : m.start()]
        starts = list(_CLAUSE_START.finditer(before))
        clause = before[starts[-1].end() :] if starts else before
        if _UNSAID.search(clause) or _UNSAID.search(m.group(0)):
            continue
        end = text.find("\n", m.end())
        start = text.rfind("\n", 0, m.start()) + 1
        return text[start : end if end != -1 else len(text)].strip()[:200]
    return None


def read_claims(text: str, evidence: Evidence | None = None) -> Claims:
    """The claims in `text` (any text; linear in its length). `evidence` is the text's
    own, when already extracted (the rules judge's verdict carries it)."""
    own = prose(text[:40_000])
    evidence = evidence if evidence is not None else extract(text[:40_000])
    shown = tuple(s for s in evidence.tests if s.runner != "none" and (s.passed or s.failed))
    return Claims(
        tests_pass=_claim(_TESTS_PASS, own),
        shown=shown,
        commit=_claim(_COMMIT, own),
        hashes=_hashes(text[:40_000]),
    )


def _hashes(text: str) -> tuple[str, ...]:
    if "commit" not in text.lower() and "sha" not in text.lower():
        return ()
    found = [h for h in _HASH.findall(text) if any(c.isdigit() for c in h) and not h.isdigit()]
    return tuple(dict.fromkeys(found))
