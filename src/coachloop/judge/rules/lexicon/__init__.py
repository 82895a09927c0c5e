"""The rules' vocabulary, as data: regular expressions per category and language.

Each category is compiled into one alternation that is matched against LOWERCASED text,
without `re.IGNORECASE` (the rules lowercase a message once: `Message.low_prose`), so
every pattern is written in lower case: an upper-case letter would never match (a test
checks). Patterns match the agent's own prose (code, inline code and quotes already
removed) unless a category says otherwise. To extend a language, add to its list; no
code changes are needed.
"""

from coachloop.judge.rules.lexicon import (
    asks_world,
    claims,
    claims_world,
    cues,
    flow,
    handoffs_world,
    own_failures,
    prompts,
    trouble,
    trouble_world,
    world,
)
from coachloop.judge.rules.lexicon.base import (
    Lexicon,
    SplitRegex,
    compile_lexicon,
    lexicon_regex,
)
from coachloop.judge.rules.lexicon.flow import OFFER, OFFER_STRONG
from coachloop.judge.rules.lexicon.trouble import (
    DANGLING,
    DANGLING_CJK,
    DANGLING_CJK_WORDS,
    ERROR_ANYWHERE,
    ERROR_OPENING,
    TWO_LETTER_WORDS,
)

HEDGE: Lexicon = {**claims.HEDGE, **claims_world.HEDGE_WORLD}
DONE: Lexicon = {**claims.DONE, **claims_world.DONE_WORLD}
ONGOING: Lexicon = {**flow.ONGOING, **world.ONGOING_WORLD}
ASK: Lexicon = {**flow.ASK, **world.ASK_WORLD}
ASSERTED: Lexicon = {**claims.ASSERTED, **claims_world.ASSERTED_WORLD}
BLOCKER: Lexicon = {**trouble.BLOCKER, **trouble_world.BLOCKER_WORLD}
STUCK: Lexicon = {**trouble.STUCK, **trouble_world.STUCK_WORLD}
RESUMES_ONCE: Lexicon = {**trouble.RESUMES_ONCE, **trouble_world.RESUMES_ONCE_WORLD}
ASK_SURE: Lexicon = {
    **cues.ASK_SURE,
    **asks_world.ASK_SURE_WORLD,
    **handoffs_world.REQUEST_THEN_WORLD,
}
BLOCKED_SURE: Lexicon = {**cues.BLOCKED_SURE, **trouble_world.BLOCKED_SURE_WORLD}

__all__ = [
    "ASK",
    "ASK_SURE",
    "ASSERTED",
    "BLOCKED_SURE",
    "BLOCKER",
    "DANGLING",
    "DANGLING_CJK",
    "DANGLING_CJK_WORDS",
    "DONE",
    "ERROR_ANYWHERE",
    "ERROR_OPENING",
    "HEDGE",
    "OFFER",
    "OFFER_STRONG",
    "ONGOING",
    "RESUMES_ONCE",
    "STUCK",
    "TWO_LETTER_WORDS",
    "Lexicon",
    "SplitRegex",
    "compile_lexicon",
    "cues",
    "lexicon_regex",
    "own_failures",
    "prompts",
]
