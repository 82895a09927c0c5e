"""What the rules read off a message: matched phrases, questions, evidence, skill."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from coachloop._lazy import lazy
from coachloop.core.verdict import Evidence
from coachloop.evidence import harness
from coachloop.evidence.text import extract
from coachloop.judge.rules import ending
from coachloop.judge.rules import lexicon as lx
from coachloop.judge.rules.text import (
    QUESTION_MARKS,
    Message,
    cut_in_code,
    last_word,
    open_code_span,
)
from coachloop.scan import Scanner
from coachloop.scan.index import non_ascii, words_of_part
from coachloop.scan.lazy import LazyPattern

HEDGE = lx.compile_lexicon(lx.HEDGE)
ASSERTED = lx.compile_lexicon(lx.ASSERTED)
DONE = lx.compile_lexicon(lx.DONE)
ONGOING = lx.compile_lexicon(lx.ONGOING)
ASK = lx.compile_lexicon(lx.ASK)
OFFER = lx.SplitRegex(lx.OFFER)  # 5x faster than a scanner on the sentences it reads
OFFER_STRONG = lx.SplitRegex(lx.OFFER_STRONG)
BLOCKER = lx.compile_lexicon(lx.BLOCKER)
STUCK = lx.compile_lexicon(lx.STUCK)
ERROR_OPENING = lx.lexicon_regex(lx.ERROR_OPENING)
ERROR_ANYWHERE = lx.compile_lexicon(lx.ERROR_ANYWHERE)

_ACTION_REQUEST = Scanner(
    r"\b(?:could|can|would|will) (?:you|someone|somebody|an admin)\b|\bplease (?:run|add|grant|"
    r"give|create|set|push|open|enable|top up|install|share access)\b|\bsomeone (?:with|who)\b",
    re.I,
    indexed=True,
)


def requests_action(text: str) -> bool:
    """The text asks a person to do something (run, grant, add...), "yourself" included."""
    return bool(_ACTION_REQUEST.search(text) or _SELF_OR_OTHER.search(text))


_SELF_OR_OTHER = LazyPattern(r"\byourself\b|\bsomeone\b", re.I)


_APPEAL = Scanner(
    r"\b(?:you|someone|somebody|admin|alguien|usted|jemand|quelqu'un|vous)\b", re.I, indexed=True
)
_BLOCKED_PLAIN = Scanner(
    r"permission denied|access denied|\bblocked on\b|^blocked\b|\byou(?:'ll| will)? need to "
    r"[^.]{0,80}\b(?:manually|yourself)\b",
    re.I | re.M,
    indexed=True,
)
_WORKAROUND = LazyPattern(
    # not "no other environment to fall back to" (none there)
    r"\binstead\b|\bwork(?:ing)? ?around\b|(?<!to )\bfall(?:ing)? back\b|\bstattdessen\b|"
    r"\ben su lugar\b|\bà la place\b|\bвместо\b|\binvece\b|\bem vez\b|改用|换成|代わりに|"
    # "no write access to /var/log, so I log to ./logs": the agent's own way on
    r"\bso (?:i'll|i will|let me)\b|\basí que\b|\bdonc je\b|\bquindi\b|\bentão vou\b|\bwięc\b|"
    r"\bпоэтому\b|\bтому\b"
)
_DOCS_ONLY = LazyPattern(
    r"\b(?:docs?|documentation)[- ]only\b|\bonly (?:docs|documentation)\b|"
    r"\bno code (?:changes?|changed),? so\b",  # "No code changes, so the suite was not run"
    re.I,
)
_PARTIAL = Scanner(
    r"\b(?:step|task|phase|part|batch) (\d+) ?(?:of|/) ?(\d+)\b|\b(\d+)/(\d+) (?:done|complete)|"
    r"\bhalfway\b|\bso far\b|\bnot (?:yet )?(?:done|finished|complete)\b",
    re.I,
    indexed=True,
)
_RHETORICAL = LazyPattern(
    r"^\W*(?:(?:so|and|but|ok),? )?(?:why|how|what|where|when|which|who|por qué|cómo|qué|dónde|"
    r"pourquoi|comment|où|warum|wieso|weshalb|wie|wo)\b",
    re.I,
)
# A question the agent puts to itself while it investigates ("Why does the cache miss on
# every call? Checking the key builder next."): an investigator's question, in English,
# addressed to no one (no "you", no "I"/"we" asking leave, no judgement asked for) ...
_SELF_QUESTION = LazyPattern(
    r"^\W*(?:why|what|where|which|how|is|are|does|do|did|found it)\b"
    r"(?![^?]*\b(?:you|your|yours|i|we|us|me|my|our|should|shall|ok|okay|fine|right|correct|"
    r"prefer|want|like|approve|agree|good|better|rather)\b)",
    re.I,
)
# ... and answered by the work announced right after it ("Checking …", "Adding a log … next")
_ANSWERED_BY_WORK = LazyPattern(
    r"^\W*(?:[a-z]+ing\b[^.?!]*?(?:\bnow\b|\bnext\b|:$)|[a-z]+ing \S+ (?:and|then)\b|"
    r"almost:|yes:|no:)",
    re.I,
)
_OR_CHOICE = LazyPattern(
    r",? or |\b(?:oder|o|ou|oppure|или|або|atau|veya|lub|albo)\b|还是|或者|または|それとも|아니면",
    re.I,
)


def _quote_of(pattern: Scanner, text: str, low: str | None = None, limit: int = 5) -> list[str]:
    """Matched spans widened to their clause, for quoting back to the agent.

    The pattern runs on the lowercased text (`low`, when the caller has it); quotes keep
    the original case whenever lowercasing kept every position (it does for all but a
    few exotic letters).
    """
    low = text.lower() if low is None else low
    if len(low) != len(text):
        text = low
    quotes: list[str] = []
    if not pattern.search(low):
        return quotes  # most messages hold none: a search stops at its first candidate
    for m in pattern.finditer(low):
        start = max(text.rfind(".", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
        ends = [i for i in (text.find(".", m.end()), text.find("\n", m.end())) if i != -1]
        end = min(ends) if ends else len(text)
        quote = text[start:end].strip(" *_-•")
        if quote not in quotes:
            quotes.append(quote)
        if len(quotes) >= limit:
            break
    return quotes


_TOOL_MARKS = ("✔", "✖")
_QUOTES = (("„", '“”"'), ("«", "»"))  # low-9 (de, pl, cs…) and guillemet openers, closers
_CUT_CLAUSE = LazyPattern(
    r"(?:^|\s)(?:so that|because|in order to|damit|weil|sodass|in modo che|affinché|cosicché|"
    r"para que|porque|de modo que|pour que|parce que|afin que|de sorte que|a fim de|"
    r"чтобы|потому что|так как|щоб|тому що|żeby|ponieważ|zodat|omdat|så att|eftersom|"
    r"agar|supaya|sehingga|karena|kerana|để|vì)"
    r"\s+(?:[\w'’-]+\s+){0,2}[\w'’-]+$"
)


@dataclass(frozen=True)
class Features:
    """Lazily computed reading of one message."""

    msg: Message

    @lazy
    def msg_evidence(self) -> Evidence:
        """Everything the message shows (the verdict's `evidence`)."""
        return extract(self.msg.text, self.msg.low_text)

    @lazy
    def result_evidence(self) -> Evidence:
        """The evidence the rules judge the result by: when the last test run shown passed,
        the runs after the last failing one. A whole turn shows the bug reproduced (a run
        failing), then fixed (the run passing): the failure is the "before", not the result.
        When the last run fails, every run counts."""
        ev = self.msg_evidence
        tests = ev.tests
        if len(tests) < 2 or not tests[-1].ok:  # `ok`: it passed tests and failed none
            return ev
        # a count in prose after the last failing run ("All 14 new tests pass") is said,
        # not a run shown: the failure stands
        blocks = self.msg.code_blocks
        runs = [t for t in tests if t.runner != "generic" or any(t.line in b for b in blocks)]
        if runs and not runs[-1].ok:
            return ev
        last_failing = max((i for i, t in enumerate(tests) if t.failed), default=-1)
        return ev if last_failing < 0 else replace(ev, tests=tests[last_failing + 1 :])

    @lazy
    def hedges(self) -> list[str]:
        # "Tests not run (documentation only)" is a fair statement, not doubt; a line a
        # command printed with its heavy check or cross ("✔ Check ... packages that should
        # not be installed directly", expo-doctor's) is the tool's words, not the agent's.
        quotes = _quote_of(HEDGE, self.msg.prose, self.msg.low_prose)
        return [q for q in quotes if not _DOCS_ONLY.search(q) and not q.startswith(_TOOL_MARKS)]

    @lazy
    def asserted(self) -> list[str]:
        return _quote_of(ASSERTED, self.msg.prose, self.msg.low_prose)

    @lazy
    def done(self) -> bool:
        return bool(DONE.search(self.msg.low_prose))

    @lazy
    def ongoing_tail(self) -> bool:
        """Work under way is announced at the end of the message: its last two sentences,
        or, when a sentence or more closes the message after its last code block, those
        of that closing (the prose before the block, "Running the build:", is not the end);
        an offer among them is not work announced."""
        closing = self.closing
        last = (closing or self.msg).sentences[-2:]
        # an offer of more work ("If you like, I can take on 3.2 next") announces none
        last = [s for s in last if not self.is_offer(s)]
        tail = " ".join(last)
        low = tail.lower()
        return bool(
            # the tail's words are the prose's: sentences are cut and joined at spaces
            ONGOING.search(low, words_of_part(self.msg.low_prose), non_ascii(self.msg.low_prose))
            # one sentence per line: each opens as a sentence, also where the prose cut it at
            # a line end without a stop ("3. Switch the view over", "Starting with step 1.")
            or ending.gerund_opening("\n".join(last))
            or self.msg.text.rstrip().endswith((":", "："))  # the full-width one: CJK
            or ending.note_to_self(low)
            or ending.lone_step_heading(self.msg.text)
            or harness.running_at_end(self.msg.text)
        )

    @lazy
    def ongoing_any(self) -> bool:
        return bool(ONGOING.search(self.msg.low_prose) or ending.gerund_opening(self.msg.prose))

    @lazy
    def partial(self) -> bool:
        for m in _PARTIAL.finditer(self.msg.prose):
            a, b = m.group(1) or m.group(3), m.group(2) or m.group(4)
            if a is None or int(a) < int(b or 0):
                return True
        return False

    @lazy
    def questions(self) -> list[str]:
        """Question sentences in the agent's own prose, rhetorical openers left out."""
        sentences = self.msg.sentences
        found: list[str] = []
        prose = self.msg.prose
        if "¿" not in prose and not any(map(prose.__contains__, QUESTION_MARKS)):
            return found  # every question sentence holds one of them
        for i, raw in enumerate(sentences):
            s = raw.rstrip("*_ )")
            if not (s.endswith(QUESTION_MARKS) or s.startswith("¿")):
                continue
            if s.endswith(" ??") or s.strip() == "??":
                # code pasted as a tool printed it: "tenantId: overrides.tenantId ??", git
                # status's "??" of an untracked file
                continue
            if (
                i == 0
                and len(sentences) > 2
                and _RHETORICAL.match(s)
                and not sentences[-1].endswith(QUESTION_MARKS)
            ):
                continue  # "Why was it slow? Because ..." answers itself
            if (
                i + 1 < len(sentences)
                and _SELF_QUESTION.match(s)
                and _ANSWERED_BY_WORK.match(sentences[i + 1])
            ):
                continue  # "What calls `refresh()` twice? Adding a log next." asks no one
            found.append(s)
        return found

    @lazy
    def asks(self) -> bool:
        return bool(ASK.search(self.msg.low_prose))

    def is_offer(self, question: str) -> bool:
        low = question.lower()
        if OFFER_STRONG.search(low):
            return True
        return bool(OFFER.search(low)) and not _OR_CHOICE.search(low)

    @lazy
    def closing(self) -> Message | None:
        """The words after the message's last code block (`ending.closing`), or None."""
        return ending.closing(self.msg)

    @lazy
    def closing_offer(self) -> str:
        """The sentences of the message's last paragraph that offer more work
        (`ending.closing_offer`); "" if none."""
        return ending.closing_offer(self.msg.text, self.is_offer)

    @lazy
    def claims(self) -> bool:
        """The message claims a result, whether or not it holds up."""
        return self.done or bool(self.asserted) or bool(self.hedges)

    @lazy
    def blocked(self) -> bool:
        """Something outside the agent's control: blocker words (code included) and the
        agent's own words saying it cannot go on; not when it goes around the obstacle
        itself (`works_around`)."""
        if _BLOCKED_PLAIN.search(self.msg.prose):
            return not self.works_around
        stuck = BLOCKER.search(self.msg.low_text) and STUCK.search(self.msg.low_prose)
        return bool(stuck) and not self.works_around

    @lazy  # both `blocked` and the sure deliveries ask
    def works_around(self) -> bool:
        """It ends going around the obstacle itself: "needs admin rights, so let me use a
        user install instead:" (work announced, and a way around it named)."""
        return self.ongoing_tail and bool(_WORKAROUND.search(self.msg.low_last_three))

    @lazy
    def appeals(self) -> bool:
        """The ending asks a person to act (run, grant, add, fix something)."""
        tail = self.msg.last_three
        words = words_of_part(self.msg.low_prose)  # cut and joined at spaces: the prose's
        return bool(_ACTION_REQUEST.search(tail, words) or _APPEAL.search(tail, words))

    @lazy
    def resumes_after(self) -> bool:
        """The ending puts the agent's next step after something it waits for
        (`ending.resumes_after`)."""
        return ending.resumes_after(self.msg.low_last_three)

    @lazy
    def error_opening(self) -> bool:
        return bool(ERROR_OPENING.search(self.msg.low_text[:300].split("\n", 1)[0]))

    @lazy
    def error_anywhere(self) -> bool:
        return bool(ERROR_ANYWHERE.search(self.msg.low_text))

    @lazy
    def truncated(self) -> bool:
        """The text stops mid-sentence on a function word ("... checks for the"), inside
        a word of inline code ("... the config in `config/pro"), or mid-program in a
        code block it left open (`cut_in_code`)."""
        text = self.msg.text.rstrip()
        if (text.count("```") + text.count("~~~")) % 2 and cut_in_code(
            self.msg.text, self.msg.fences
        ):
            return True
        # an empty list item ends the text on its marker's last character (no trailing space)
        if text[-1:] in ".)-*•" and re.search(r"\n\s*(?:\d+[.)]|[-*•])\s*$", text):
            return True  # stops on an empty list item
        if not text or text[-1] in ".!?:;)`\"'*…]}>|":
            return False
        if text[-1] in lx.DANGLING_CJK or text.endswith(lx.DANGLING_CJK_WORDS):
            return True
        # a quotation opened and never closed: "… pokażę komunikat „Nie udało się pobrać"
        for opener, closers in _QUOTES:
            at = text.rfind(opener)
            if at != -1 and all(text.find(c, at) == -1 for c in closers):
                return True
        low = self.msg.low_text  # `text` is the message's text: it is stripped already
        word = last_word(low)
        if word in lx.DANGLING or open_code_span(text):
            return True
        # a word cut after two letters, behind one that wants more: "… queued requests and re"
        if (
            len(word) == 2
            and word.isascii()
            and word.isalpha()
            and word not in lx.TWO_LETTER_WORDS
            and last_word(low[: len(low) - 2].rstrip()) in lx.DANGLING
        ):
            return True
        # a purpose or reason clause opened and left after a word or three: "Ich passe jetzt
        # die Komponente an, damit der Streichpreis", "… in modo che il badge"
        line = low[low.rfind("\n") + 1 :]
        return len(line.split()) >= 5 and bool(_CUT_CLAUSE.search(line))
