"""How a message ends: the reading of its last words that says whether work is announced.

A whole turn of an IDE agent narrates its steps, shows code and output, then closes on
its result: the ending is what follows the last code block (`closing`), or the last
sentences when there is no such closing. `Features` reads the ending through these
functions (`ongoing_tail`, `closing`, `closing_offer`, `resumes_after`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from coachloop.judge.rules.lexicon import RESUMES_ONCE
from coachloop.judge.rules.text import Message
from coachloop.scan.lazy import LazyPattern

# A sentence that opens with a gerund ("Running the suite now.") reports work under way.
# The words that are not gerunds; the pattern finds what this one finds:
#   (?:^|(?<=[.!;]\s))(?!(?:Nothing|...|King)\b)[A-Z][a-z]+ing\b   (re.M)
# written to open on its capital letter, so that `re` skips every other character: the
# line start and the sentence end are looked for behind it, and each excluded word is
# checked after its first letter.
_NOT_GERUNDS = [
    "Nothing",
    "Everything",
    "Something",
    "Anything",
    "During",
    "Using",
    "Following",
    "Including",
    "Bring",
    "Thing",
    "Spring",
    "String",
    "Ring",
    "King",
    # nouns: "Pricing is …"
    "Pricing",
    "Billing",
    "Onboarding",
    # adjectives, not work under way: "Existing unit tests: ...", "Remaining issues"
    "Existing",
    "Remaining",
    "Missing",
    "Pending",
    "Outstanding",
    "Upcoming",
    "Underlying",
    "Corresponding",
]
_GERUND_OPENING = LazyPattern(
    r"[A-Z](?:(?<![^\n].)|(?<=[.!;]\s.))(?!"
    + "|".join(f"(?<={w[0]}){w[1:]}\\b" for w in _NOT_GERUNDS)
    + r")[a-z]+ing\b",
    re.M,
)
# A terse note to itself closing the message: "Need to verify the migration ran."
# (subjectless, so not a request to anyone; read in the last sentences only)
_NOTE_TO_SELF = LazyPattern(r"(?:^|[.!:]\s+)(?:still )?needs? to (?!be\b)\w+")
# A heading naming a step of a plan ("### Step 8: ...", "## Phase 2 - ...", "### 3. Add ...",
# "## 第2步：..."): only such a lone heading announces the next step; any other ("# Blocked:
# ...", "## Decision needed: ...") is left to the other rules and the fail-safe.
_STEP_HEADING = LazyPattern(
    r"#+ +(?:(?:step|phase|part|stage|task|paso|fase|étape|etape|schritt|teil) *\d"
    r"|\d+[.):] |第 *[\d一二三四五六七八九十]+ *[步阶部])",
    re.I,
)
_FINITE = LazyPattern(
    r"\b(?:is|are|was|were|has|have|had|lives|sits|will|would|can|should|must|might|may|done|"
    # a plural noun's verb: "Staging and prod both return …"
    r"return|respond|serve|"
    r"complete|completed|finished|ready|fixed|merged|live|shipped)\b"
    # the gerund is the subject: "Searching for CODE now matches only ..."
    r"|\bnow (?:works|returns|matches|shows|takes|runs|passes|fails|uses|handles|finds|"
    r"keeps|skips|loads|sends|writes|reads|produces|gives|stays|points)\b"
    # "Adding CODE before the routes fixes it"
    r"|\b(?:fixes|solves|resolves|makes|means|breaks|causes|prevents|avoids|requires|triggers|"
    r"costs|saves|helps|lets|leads to|results in|seems|looks|remains|becomes|points at|points to)\b"
)


def gerund_opening(text: str) -> bool:
    """A sentence opening with a gerund and no finite verb: "Running the suite now." """
    for m in _GERUND_OPENING.finditer(text):
        if text.startswith((" - ", ":", "\n"), m.end()) or m.end() == len(text):
            continue  # a label or a heading over a list ("Testing - CODE"), not a step
        end = text.find(".", m.end())
        if not _FINITE.search(text[m.end() : end if end != -1 else len(text)]):
            return True
    return False


_RESUMES_AFTER = LazyPattern(
    r"(?:^|[.!?:;|]\s+)(?:once|after that|as soon as|when that's done|"
    r"after (?:you|they|it|that|those|these|the|this)\b)[^.!?\n]{0,120}?"
    r"\b(?:i'll|i will|i can|(?:it|this|that|the [\w-]+) should(?: just)? (?:start|work|go))\b"
    # the same after the step, as the stuck agent says it ("I'll rerun the webhook tests
    # once you add a fresh key", "Seguiré cuando …": `lexicon.RESUMES_ONCE`)
    + "".join(f"|{p}" for patterns in RESUMES_ONCE.values() for p in patterns)
    # "appena fatto, riprendo …"
    + r"|\bappena (?:fatto|\w+to),? riprendo\b"
    # "充值后我接着测" (after the top-up I go on testing)
    r"|(?:后|之后|以后)我(?:接着|再|继续)"
    # "… tant qu'il n'est pas revenu" (until it is back)
    r"|\btant qu'(?:il|elle|ils|elles|on) n'(?:est|sont|a|ont) pas\b"
    # "I'll wait for the project to come back"
    r"|\bi'?ll wait (?:for|until) (?:the|it|them|you|someone|that)\b"
    # "Sobald jemand das bestätigt, reicht `make deploy`" (once someone confirms, … is enough)
    r"|\bsobald\b[^.!?\n]{0,80}\b(?:reicht|kann ich|lade ich|starte ich|mache ich weiter)\b"
    # "한도가 늘어나면 … 이어서 진행됩니다" (once the quota is raised, it carries on)
    r"|(?:늘어나면|추가되면|해결되면|완료되면|연결되면|등록되면|설정되면|승인되면|풀리면)"
    r"[^.\n]{0,60}(?:진행|실행|이어서|계속|재개)"
    r"|(?:після цього|после этого|как только|щойно|una vez (?:que )?\w+)[^.\n]{0,80}"
    r"(?:\bя (?:перезапущу|запущу|продовжу|продолжу|повторю|задеплою|виконаю|выполню)\b|"
    r"\bfunciona\b)"
)
_CLOSING_WORDS = 6  # a sentence, not a caption ("Output:") or a sign-off ("Done.")
_SENTENCE = LazyPattern(r"(?<=[.!?。！？])\s+")


def note_to_self(low: str) -> bool:
    """A terse note to itself closes the (lowercased) ending: "need to verify the migration ran"."""
    return "need" in low and bool(_NOTE_TO_SELF.search(low))


def lone_step_heading(text: str) -> bool:
    """The whole message is one heading naming a step ("### Step 4: Add the settings
    page"): that step is about to start."""
    return text.startswith("#") and "\n" not in text and bool(_STEP_HEADING.match(text))


def closing(msg: Message) -> Message | None:
    """The words after the message's last code block, when they are a sentence or more
    that does not end on a colon before another step: where a whole turn ends (the prose
    before the block, "Running the build:", is not the end). None otherwise."""
    if not msg.fences:
        return None
    words = Message(msg.text[msg.fences[-1][1] :])
    if words.words < _CLOSING_WORDS or words.text.endswith((":", "：")):
        return None
    return words


def closing_offer(text: str, is_offer: Callable[[str], bool]) -> str:
    """The sentences of the last paragraph of `text` that offer more work ("If you'd
    like, I can also apply the same fix to `Dashboard.tsx`"), as written; "" if none.
    Raw text, not prose: the offer keeps its paths as written."""
    text = text.rstrip()
    last = text[text.rfind("\n\n") + 1 :]
    if "```" in last:
        return ""
    return " ".join(s for s in _SENTENCE.split(last) if is_offer(s))


def resumes_after(low_last_three: str) -> bool:
    """The ending (its last three sentences, lowercased) puts the agent's next step, or the
    work's outcome, after something it waits for ("Once they're in `.env.local` I'll run
    the suite", "After that the locator should start working"): with a blocker named,
    that something is the human's to do."""
    return bool(_RESUMES_AFTER.search(low_last_three))
