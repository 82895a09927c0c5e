"""The rules' vocabulary, as data: regular expressions per category and language.

Each category is compiled into one case-insensitive alternation. Patterns match the
agent's own prose (code, inline code and quotes already removed) unless a category
says otherwise. To extend a language, add to its list; no code changes are needed.
"""

from coachloop.judge.rules.lexicon.base import Lexicon, compile_lexicon
from coachloop.judge.rules.lexicon.claims import ASSERTED, DONE, HEDGE
from coachloop.judge.rules.lexicon.flow import ASK, OFFER, OFFER_STRONG, ONGOING
from coachloop.judge.rules.lexicon.trouble import (
    BLOCKER,
    DANGLING,
    ERROR_ANYWHERE,
    ERROR_OPENING,
    STUCK,
)

__all__ = [
    "ASK",
    "ASSERTED",
    "BLOCKER",
    "DANGLING",
    "DONE",
    "ERROR_ANYWHERE",
    "ERROR_OPENING",
    "HEDGE",
    "OFFER",
    "OFFER_STRONG",
    "ONGOING",
    "STUCK",
    "Lexicon",
    "compile_lexicon",
]
