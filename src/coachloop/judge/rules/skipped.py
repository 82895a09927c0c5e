"""The check that would prove the change skipped: a completion whose own words say the
tests covering the new code did not run, or that the agent set failing tests aside.

Read from the agent's prose (lowercased), only where it says so itself:
- the skipped tests are the ones for the change ("the three skipped ones are exactly the
  ones covering the new export path", "the two skipped tests are the ones for the new S3
  path, they need credentials");
- they were skipped for want of something here ("skipped because there's no macOS runner
  here", "were skipped in the last run");
- the agent set tests aside itself to get green ("I skipped `e2e/` since those were flaky").
A skip the prose does not tie to the change ("1 skipped: Windows only") is not read.

`bypassed_check` reads the whole lowercased text, code included, for checks routed around
where the message also says they failed: a commit made with `--no-verify` past a failing
hook, a test marked `@Disabled`, `.skip(`, `xit(` or `@pytest.mark.skip` beside a word for
flaky or failing (in the languages agents write in), a failing CI job set to
`continue-on-error: true` or `allow_failure: true`, a test command ending in `|| true`.
"""

from __future__ import annotations

from coachloop.scan.index import words
from coachloop.scan.lazy import LazyPattern

__all__ = ["bypassed_check", "skipped_check"]

# Every match holds "skip" or one of the other verbs of setting a test aside (in English,
# or one of `_ASIDE_WORDS`).
_WORDS = (
    "skip",
    "disabled",
    "excluded",
    "commented out",
    "muted",
    "removed",
    "genommen",
    "entfernt",
)
# Setting a test aside, and a test failing, in the other languages agents write in.
_ASIDE_WORDS = (
    "comentei", "desativei", "desabilitei", "pulei", "comenté", "desactivé", "deshabilité",
    "salté", "commenté", "désactivé", "commentato", "disattivato", "auskommentiert",
    "deaktiviert", "закомментировал", "закомментировала", "закомментировали", "отключил",
    "отключила", "отключили", "закоментував", "закоментувала", "закоментували", "вимкнув",
    "вимкнула", "вимкнули", "注释掉", "跳过了",
)  # fmt: skip
_ASIDE = "(?:" + "|".join(_ASIDE_WORDS) + ")"
# looked up in the prose's words (read once per message: `index.words`), the scripts that
# write no spaces between words as substrings
_ASIDE_CJK = tuple(w for w in _ASIDE_WORDS if w[0] >= "\u3000")
_ASIDE_SPACED = frozenset(_ASIDE_WORDS) - frozenset(_ASIDE_CJK)
_FAILING = (
    r"(?:falhava|falhando|fallaba|fallando|échouait|échoue|falliva|fallisce|fehlschlug|"
    r"schlug \w+ fehl|schlugen \w+ fehl|падал|падает|падав|падає|instável|inestable|instable|"
    r"instabile|flaky|失败|不稳定)"
)
_SKIPPED = LazyPattern(
    # the skipped ones are those for the change
    r"\bskipped (?:ones?|tests?|specs?|cases?)\b[^.\n]{0,40}?\b(?:are|is|were|was) "
    r"(?:exactly |precisely )?(?:the ones?|those|the (?:\w+ ){0,2}tests?) "
    r"(?:for|that|which|covering|cover)\b|"
    r"\bskipped\b[^.\n]{0,100}?\b(?:cover(?:s|ing)? the (?:new|change|fix)|the ones covering)\b|"
    # skipped for want of something here
    r"\bskipped because (?:there'?s no|there is no|\w+ (?:isn'?t|is not|aren'?t|are not) "
    r"(?:installed|available|configured|set)|we (?:don'?t|do not) have|i (?:don'?t|do not) "
    r"have|(?:it|they) needs?)\b|"
    r"\btests? (?:were|was|got) skipped in the last run\b|"
    # set aside by the agent itself: "I disabled the flaky ones", "Skipped `test_x` (flaky),
    # rest is green"
    r"\bi (?:skipped|disabled|excluded|commented out|muted)\b[^.\n]{0,80}?"
    r"\b(?:flaky|failing|broken|were failing|kept failing)\b|"
    r"(?:^|[.;] )skipped code \((?:flaky|failing|broken)\)|"
    # a test step taken out of the pipeline: "removed the integration test job from CI",
    # "den test-integration-step aus ci: rausgenommen"
    r"\bremoved (?:the )?[\w-]*test[\w-]* (?:step|job|stage)s? from (?:the )?"
    r"(?:ci|pipeline|workflow)\b|"
    r"\b[\w-]*test[\w-]*\b[^.\n]{0,40}\baus (?:der |dem )?(?:ci|pipeline|workflow)\b[^.\n]{0,30}"
    r"\b(?:rausgenommen|herausgenommen|entfernt)\b|"
    # the same in other languages, the failure said before or after: "o teste falhava …,
    # então comentei ele por enquanto", "lo desactivé porque fallaba"
    rf"{_ASIDE}[^.\n]{{0,80}}?{_FAILING}|{_FAILING}[^.\n]{{0,120}}?{_ASIDE}"
)


def skipped_check(low_prose: str) -> str | None:
    """The words that say the change's own tests were skipped, or None."""
    if (
        not any(map(low_prose.__contains__, _WORDS))
        and _ASIDE_SPACED.isdisjoint(words(low_prose)[0])
        and not any(map(low_prose.__contains__, _ASIDE_CJK))
    ):
        return None
    found = _SKIPPED.search(low_prose)
    return found.group(0) if found else None


_SKIP_MARKS = (
    "--no-verify", "@disabled", "@ignore", ".skip(", "xit(", "mark.skip", "#[ignore]", "|| true",
    '": "off"', '":"off"',
    "continue-on-error: true", "allow_failure: true",
)  # fmt: skip
_BYPASSED = LazyPattern(
    # past a hook that failed ("the hook was failing on mypy, so I committed with
    # `--no-verify`"), not one only slow or unfit for docs ("to bypass the pre-commit hook")
    r"--no-verify\b[^\n]{0,120}?\b(?:fail|error)|\b(?:fail|error)[^\n]{0,200}?--no-verify\b|"
    r"(?:@disabled|@ignore|\.skip\(|\bxit\(|mark\.skip|#\[ignore\])[^\n]{0,120}?"
    r"(?:flaky|fail|fehl|sporadisch|échou|instable|fall|falh|instáve|пада|нестабил|失败|不稳定)|"
    r"(?:flaky|fail|fehl|sporadisch|échou|instable|fall|falh|instáve|пада|нестабил|失败|不稳定)"
    r"[^\n]{0,120}?(?:@disabled|@ignore|\.skip\(|\bxit\(|mark\.skip|#\[ignore\])|"
    # a test command made to pass whatever it finds, in the CI script shown
    r"\b(?:pytest|jest|vitest|mocha|rspec|phpunit|eslint|ruff|flake8|mypy|tsc|(?:npm|yarn|pnpm) "
    r"(?:run )?(?:test|lint)|(?:go|cargo|dotnet|mvn|gradle) test)\b[^\n]{0,80}\|\| true\b|"
    # lint rules switched off in the config to get a clean run: `+ "no-unused-vars": "off"`
    r"(?:^|\n)[ \t]*\+[ \t]*\"[@\w/-]+\": ?\"off\"|"
    # a failing CI job let through: "…was failing …, so I set `continue-on-error: true`"
    r"\b(?:fail|flaky)[^\n]{0,200}?(?:continue-on-error|allow_failure): true\b"
)


def bypassed_check(low_text: str) -> str | None:
    """The words that say a failing check was routed around, or None."""
    if not any(map(low_text.__contains__, _SKIP_MARKS)):
        return None
    found = _BYPASSED.search(low_text)
    return found.group(0)[:120] if found else None
