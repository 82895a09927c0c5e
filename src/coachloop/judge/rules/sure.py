"""Sure deliveries: what reaches the human whatever the scorer says.

The run broke (a harness line opening or closing the agent's words, the same lines over
and over), the human is asked plainly to answer or act, or something outside the
agent's control is named. False suppression is the costliest mistake, so these are
read before any score (`route`).
"""

from __future__ import annotations

from functools import lru_cache

from coachloop.core.verdict import MessageType
from coachloop.judge.rules import lexicon as lx
from coachloop.judge.rules.classify import Outcome
from coachloop.judge.rules.features import Features
from coachloop.scan.index import is_word, non_ascii, words_of_part
from coachloop.scan.lazy import LazyPattern

__all__ = [
    "ASK_SURE",
    "BLOCKED_SURE",
    "ERROR_WORDS",
    "repetitive",
    "sure_deliver",
    "waits_on_request",
]

ERROR_WORDS = lx.compile_lexicon(lx.own_failures.ERROR_WORDS)
ASK_SURE = lx.compile_lexicon(lx.ASK_SURE)  # read with the prose's words
BLOCKED_SURE = lx.compile_lexicon(lx.BLOCKED_SURE)


@lru_cache(maxsize=8)  # both the signals and the sure deliveries ask
def repetitive(prose: str) -> bool:
    """The same lines of the agent's own words over and over: a model stuck in a loop.

    Read on the prose (code blocks removed, inline code as CODE): fence markers, closing
    tags and code pasted several times are not a loop, and a line with no word of its own
    ("- CODE", "---") does not count.

    Lines are counted first and the wordless ones taken out of the counts after: the
    same counts as leaving them out line by line, with one search per distinct line,
    and none when no line comes three times (then none of the kept lines does)."""
    counts: dict[str, int] = {}
    for line in prose.split("\n", 400):
        s = line.strip()
        if s:
            counts[s] = counts.get(s, 0) + 1
    if not counts or max(counts.values()) <= 2:
        return _repeated_sentence(prose)
    kept = [
        n for s, n in counts.items() if _WORDY.search(s.replace("CODE", "").replace("QUOTE", ""))
    ]
    lines = sum(kept)
    if lines < 6:  # few lines: a loop only when one line is all of them, five times over
        return max(kept, default=0) >= 5
    return sum(n for n in kept if n > 2) / lines > 0.3


_WORDY = LazyPattern(r"[^\W\d_]{2}")
_SENTENCE_END = LazyPattern(r"(?<=[.!?。！？])\s*")


def _repeated_sentence(prose: str) -> bool:
    """One sentence over and over on a few lines ("I will now run the tests. I will now
    run the tests. ..."): the same loop, without line breaks. Read only when the end of
    the prose recurs (a loop runs on to the end, maybe cut off inside its sentence)."""
    end = prose.rstrip()
    if len(end) < 80 or end.count(end[-12:]) < 4:
        return False
    counts: dict[str, int] = {}
    for sentence in _SENTENCE_END.split(end):
        s = sentence.strip()
        if len(s) >= 8:
            counts[s] = counts.get(s, 0) + 1
    if not counts:
        return False
    most = max(counts, key=counts.__getitem__)
    return counts[most] >= 5 and counts[most] * len(most) >= 0.4 * len(end)


_API_ERROR_LINE = LazyPattern(r"^\W{0,3}api error\b")


def _error_closing(low_prose: str) -> bool:
    """The agent's own words end on a line of its harness ("API Error: 529 ...",
    "[Response interrupted ...]"): the run broke after the work it narrated."""
    end = len(low_prose.rstrip())
    start = low_prose.rfind("\n", 0, end) + 1
    while start < end and low_prose[start] in " \t":
        start += 1
    last = low_prose[start : min(end, start + 300)]
    if not last:
        return False
    # the prose's words and characters cover the line's: it is a slice of the prose
    words = words_of_part(low_prose, start, start + len(last))
    return bool(
        _API_ERROR_LINE.search(last) or ERROR_WORDS.search(last, words, non_ascii(low_prose))
    )


def sure_deliver(f: Features, outcome: Outcome) -> MessageType | None:
    """A reason to deliver whatever the scorer says, or None.

    The run broke, the human is asked plainly, or something outside the agent's
    control is named: these reach the human (false suppression is the costliest error).
    So does a finished report with a passing test run that nothing in it doubts.
    """
    low = f.msg.low_text
    opening = ERROR_WORDS.search(low[:400], words_of_part(low, 0, 400))
    if (
        outcome.type == "error"
        or opening
        or repetitive(f.msg.prose)
        or _error_closing(f.msg.low_prose)
        # a reply left inside a block it opened: the harness's line that cut it off ("The
        # model's response exceeded the maximum output length.") reads as code, not prose
        or (f.msg.ends_in_fence and _error_closing(low))
    ):
        return "error"
    tail = f.msg.low_last_three
    prose = f.msg.low_prose
    # the tail's words are the prose's: sentences are cut and joined at spaces; a request
    # may also sit before a closing list ("could you let me know: 1. ... 2. ...")
    end = max(len(prose) - 600, 0)
    # start between words: no word is cut, so the prose's words serve as they are; a cut
    # word is skipped to its end (not to the next space: a window opening on a word's
    # first letter, or a word before a newline, would lose the request's first words)
    while 0 < end < len(prose) and is_word(prose[end - 1]) and is_word(prose[end]):
        end += 1
    chars = non_ascii(prose)  # the parts' too
    if (
        ASK_SURE.search(tail, words_of_part(prose), chars)
        or ASK_SURE.search(prose[end:], words_of_part(prose, end), chars)
        or waits_on_request(prose[end:])
        or ("before" in prose and _PRECONDITION.search(prose))
    ):
        return "question"
    if BLOCKED_SURE.search(prose) and not f.works_around:
        return "blocker"
    if _proven(f, outcome):
        return "completion"
    return None


def _proven(f: Features, outcome: Outcome) -> bool:
    """A finished report the rules find nothing against, beside a passing test run and
    no doubt in its own words (no hedge, no check asserted, no work announced, nothing
    partial): its wording alone never sends it back."""
    return (
        outcome.type == "completion"
        and not outcome.problems
        and f.msg_evidence.tests_ok
        and not (f.hedges or f.asserted or f.ongoing_tail or f.partial)
    )


# "Before I delete anything, confirm the list below is safe": the step waits on the human,
# wherever the request sits (a list of what it would touch often follows it)
_PRECONDITION = LazyPattern(
    r"\bbefore (?:i|we) [^.!?\n]{1,80}?,? (?:please |can you |could you )?(?:confirm|approve)\b"
)
# "... and I'll re-run it", "..., then tell me and I'll flash it": the agent's next step
# "..., or I'll schedule it for tonight": what the agent does without an answer
_NEXT_STEP = LazyPattern(r"\b(?:and|then|or),? (?:tell me,? (?:and )?)?i(?:'ll| will)\b")
# what a request to the human opens its sentence with (not the agent's "I'll add ...");
# maybe after the place it is done in ("In the Stripe dashboard (Developers → API keys)
# either add ... or put ..., then I'll rerun")
_REQUEST = LazyPattern(
    r"(?:[-*•] |\d+[.)] )?(?:(?:in|on|under|from) (?:the |your )?[^,.\n]{1,50}?(?:\)|dashboard|"
    r"console|settings|page|portal|panel|ui),? )?(?:either )?"
    # "If you can export the list as CSV (Products → Export), drop it in data/ and I'll …"
    r"(?:if you can [^.\n]{1,80}?, )?"
    r"(?:please,? )?(?:confirm|approve|review|add|top up|plug|grant|give|set|tell me|"
    r"drop|open|pick|choose|select|create|enable|install|restart|paste|share|send|upload|start|"
    r"launch|free up|copy|mount|put|make|bump|upgrade|renew|flip|toggle|switch|"
    r"provide|generate|rotate|swap|"
    r"invite|unlock|log ?in|log out|sign in|reply|respond|answer|say|run|connect|plug in|"
    r"turn on|switch on|join)\b"
)
# "please" anywhere before it; not "if it fails, please let me know and I'll look" (help
# offered, nothing waited on)
_PLEASE = LazyPattern(r"\bplease,? (?!let me know\b)")
_ENDS = (". ", "! ", "? ", ": ", "\n")
# clause boundaries a request may follow too: "… on my own — free up some space and I'll
# retry", "… can't be undone from here, so confirm and I'll run it"
_CLAUSE_ENDS = (" — ", "; ", ", so ")


def _after(low: str, floor: int, at: int, ends: tuple[str, ...]) -> int:
    """Where text opens after the last of `ends` in `low[floor:at]`; -1 when none is there."""
    start = -1
    for end in ends:
        found = low.rfind(end, floor, at)
        if found != -1:
            start = max(start, found + len(end))
    return start


def _openings(low: str, at: int) -> set[int]:
    """Where the sentence holding position `at` opens, and the clause within it (after
    `_CLAUSE_ENDS`), each within 200 characters before it; none out of reach."""
    floor = max(at - 200, 0)
    sentence = _after(low, floor, at, _ENDS)
    if sentence == -1 and not floor:
        sentence = 0  # the text's start
    clause = max(sentence, _after(low, floor, at, _CLAUSE_ENDS))
    found = set()
    for opening in (sentence, clause):
        if opening != -1:
            found.add(_skip_spaces(low, opening, at))
    return found


def _skip_spaces(low: str, start: int, at: int) -> int:
    while start < at and low[start] == " ":
        start += 1
    return start


def waits_on_request(low: str) -> bool:
    """A request to the human, then the agent's next step said to follow it, in one
    sentence of the lowercased prose `low`: "Confirm and I'll apply it", "Add the key in
    the settings and I'll re-run the batch", "please connect the board, then tell me
    and I'll flash it". A dot inside a word (a host, a file) does not end the sentence."""
    if "i'll" not in low and "i will" not in low:
        return False
    for m in _NEXT_STEP.finditer(low):
        at = m.start()
        for start in _openings(low, at):
            if _REQUEST.match(low, start) or _PLEASE.search(low, start, at):
                return True
    return False
