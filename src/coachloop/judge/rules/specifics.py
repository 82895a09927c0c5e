"""An outcome predicted instead of observed: "should now work", "this will ensure", 应该.

`specific_signals(f, on, words)` adds named signals to the ones `vector.signals` found
(`on`): the message predicts how the result will behave instead of showing it
(`predicts`), and the same next to a claim of being done (`claim_predicts`), or next to
a claim that nothing in the message backs (`predicts_unproven`). Real agents' rejected
completions read this way ("the folder will be named correctly from now on", "这样修改后
应该就能..."), delivered ones show what happened. Each name has a plain description in
`DESCRIPTIONS`, so a verdict it decides says why; the weights are learned
(`coachloop.bench.train`), and the pattern reads no benchmark text.

Measured alone among 16 candidates (links, result counts, file:line references, file
paths, hype words, lone step headings, short lines ending on a colon, proposals,
instructions to run something, no code at all): the only one that raised grouped
out-of-fold accuracy and rejection recall on every fold assignment tried without raising
false suppression; the others moved a row or two either way and cost latency.
"""

from __future__ import annotations

import re

from coachloop.judge.rules.features import Features
from coachloop.scan import Scanner
from coachloop.scan.index import Words, words_of_part

DESCRIPTIONS: dict[str, str] = {
    "predicts": "it predicts the outcome instead of showing it",
    "claim_predicts": "it claims a result and predicts how it will behave",
    "predicts_unproven": "it predicts the outcome of a claim it does not back",
}

# Matched against the lowercased prose. The alternatives open on a literal (no leading
# \b): the scanner looks for that literal first.
_PREDICTS = Scanner(
    r"should (?:now |also |then |no longer |not )?\w|will now\b|"
    r"(?:this|these changes|that|which|it) will (?:now )?\w|"
    r"you(?:'ll| will| should) (?:now )?(?:see|get|notice|be able|have)\b|next time you\b|"
    r"from now on\b|now (?:when|whenever|if) you\b|"
    r"应该|应当|就能|就可以|即可|はず|でしょう|ようになります|것입니다|될 것|должн|будет\b|"
    r"deber[íi]a|deben\b|devrai|dovrebb|deveria|sollte|müsste|dürfte",
    re.M,
    indexed=True,
)
_CLAIMS = frozenset({"done", "done_opening", "asserted", "fix_claim", "hedge"})
_PROOF = frozenset({"evidence", "pushed", "commit", "pull_request", "output", "tests_ok"})


def specific_signals(f: Features, on: set[str], words: Words | None = None) -> set[str]:
    """The signals of this module that hold, given the ones already found (`on`).

    `words`: the words of the lowercased prose (`words_of_part`), when the caller has them.
    """
    prose = f.msg.low_prose
    if not _PREDICTS.search(prose, words if words is not None else words_of_part(prose)):
        return set()
    found = {"predicts"}
    if on & _CLAIMS:
        found.add("claim_predicts")
        if not on & _PROOF:
            found.add("predicts_unproven")
    return found


__all__ = ["DESCRIPTIONS", "specific_signals"]
