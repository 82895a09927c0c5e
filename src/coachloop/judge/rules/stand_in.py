"""A stand-in called done: the claimed work admits a placeholder where the real thing goes.

Read only from signs a writer puts there on purpose, never from a word that merely names
a placeholder ("the input's placeholder text", "mock the client in the tests"):
- a stand-in said in so many words ("returns an empty list for now", "left as a stub",
  "the real implementation is still a TODO");
- a TODO note in capitals with its colon in the agent's own words ("TODO: replace with
  live rates"); not in the code shown, where it may note a later improvement, nor a body
  that refuses to run (an abstract method raises NotImplementedError by design);
- a document shown in a Markdown block with TODO notes for its sections (the written
  document is the result, not code that may note a later improvement);
- a stand-in marked in the code shown (`stub_in_code`): a comment calling it a stub,
  placeholder or fake data, "TODO: replace …", a body that is only a TODO note, an error
  thrown as "not implemented yet"; not a TODO that notes a later improvement;
- a placeholder left in brackets where a section goes ("[À compléter]", "[TBD: …]",
  "[待补充]"), in the text, code included (`placeholder_mark`);
- a stand-in said to be temporary, in the languages real agents write in: a word for
  "for now" and, in the same stretch of prose, one for a stand-in ("por ahora devuelve un
  PDF de ejemplo fijo", "na razie zwraca pusty dokument", "untuk sementara data dummy").
"""

from __future__ import annotations

import re

from coachloop.scan.lazy import LazyPattern

__all__ = ["placeholder_mark", "stand_in", "stub_in_code", "todo_document"]

# Every match holds one of `_STUB_WORDS`: most prose has none, and is not searched.
_STUB_WORDS = ("for now", "todo", "to do", "pending", "placeholder", "stub")
# "Until we have the signing secret in the env, `verify` returns `True`"
_UNTIL_SECRET = LazyPattern(
    r"\buntil (?:we|i) (?:have|get) (?:the |a )?[\w -]{0,30}\b(?:secret|key|credentials|token|"
    r"access)\b[^.\n]{0,80}\breturns?\b"
)
_PLACEHOLDER = LazyPattern(
    r"\breturns? (?:true|false|none|null|nil|0|an? empty \w+|(?:a |an )?(?:hard-?coded|fixed|"
    r"dummy|mock|fake|static) [\w ]{1,20}?) for now\b|\b(?:real|actual|proper) (?:logic|"
    r"implementation|api call|integration) (?:is )?(?:still )?(?:a )?(?:todo|to ?do|pending)\b|"
    r"\b(?:left|is|as|with) (?:a |an )?(?:no-op |empty )?(?:placeholder|stub)"
    r"(?: implementation| body| function)?\b|\b(?:hard-?coded|mocked|stubbed|faked) for now\b"
)
_TODO_NOTE = LazyPattern(r"\bTODO(?:\([^)\n]{0,40}\))?:")
_STAND_IN = LazyPattern(
    r"\b(?:stubs?|mocks?|mocked|dummy|placeholders?|hard-?coded|fake|no-op|ejemplo|esempio|przykładow\w*|"
    r"fijo|fisso|fixo|fixa|fictic\w*|fictíci\w*|fictive?s?|factices?|fittizi\w*|fiktiv\w*|"
    r"pust\w+|vacío|vuoto|vazio|leer|sempre|siempre|zawsze|contoh|tiruan|"
    r"sahte|örnek|заглушк\w*|фиктивн\w*|nep|statisch)\b|假数据|固定|ダミー|더미|랜덤"
)
_REACH = 100  # characters either side of "for now" that its stand-in may sit in
# "for now", read on the lowercased prose: with word boundaries, and in the scripts that
# write no spaces between words, as plain substrings. The pattern is searched only when
# one of them is in the text (it opens on a word boundary, which `re` tries at every
# character).
_FOR_NOW_WORDS = (
    "for now", "for the moment", "por ahora", "de momento", "por el momento", "per ora",
    "per il momento", "na razie", "untuk sementara", "por enquanto", "pour l'instant",
    "pour le moment", "vorerst", "vorläufig", "voorlopig", "şimdilik", "tạm thời",
    "временно", "пока что", "тимчасово",
)  # fmt: skip
_FOR_NOW_CJK = ("暂时", "临时", "一時的", "暫定", "임시로")
_FOR_NOW = LazyPattern(rf"\b(?:{'|'.join(_FOR_NOW_WORDS)})\b|{'|'.join(_FOR_NOW_CJK)}")
_FOR_NOW_SCREEN = (*_FOR_NOW_WORDS, *_FOR_NOW_CJK)


def stand_in(prose: str, low_prose: str) -> str | None:
    """The words that admit a stand-in in a message's prose (`low_prose`: lowercased),
    or None."""
    if any(map(low_prose.__contains__, _STUB_WORDS)):
        said = _PLACEHOLDER.search(low_prose)
        if said:
            return said.group(0)
    if "until we " in low_prose or "until i " in low_prose:
        until = _UNTIL_SECRET.search(low_prose)
        if until:
            return until.group(0)
    if "TODO" in prose:
        note = _TODO_NOTE.search(prose)
        if note:
            end = prose.find("\n", note.end())
            return prose[note.start() : end if end != -1 else len(prose)][:120]
    if not any(map(low_prose.__contains__, _FOR_NOW_SCREEN)):
        return None
    for m in _FOR_NOW.finditer(low_prose):
        start, end = max(m.start() - _REACH, 0), m.end() + _REACH
        near = _STAND_IN.search(low_prose, start, end)
        if near:
            return low_prose[min(m.start(), near.start()) : max(m.end(), near.end())]
    return None


_MARKDOWN_FENCES = ("```markdown", "```md", "~~~markdown", "~~~md")


def todo_document(blocks: list[str]) -> str | None:
    """The first TODO note of a document shown in a Markdown block (`blocks`: the fenced
    blocks, fences included) that holds two or more, or None."""
    for block in blocks:
        if block.lstrip().startswith(_MARKDOWN_FENCES) and block.count("TODO") >= 2:
            at = block.find("TODO")
            end = block.find("\n", at)
            return block[at : end if end != -1 else len(block)][:120]
    return None


# Each match holds one of `_CODE_STUB_WORDS` (lowercased block): most blocks hold none.
_CODE_STUB_WORDS = (
    "stub", "placeholder", "заглушк", "fake", "dummy", "mock", "todo", "implemented", "占位",
    "ダミー", "임시",
)  # fmt: skip
_CODE_STUB = LazyPattern(
    # a comment that calls the code a stand-in ("// stub: returns CSV", "# Заглушка: ...")
    r"(?://|#|--|/\*)[ \t]*(?:[\w-]+[ \t]*[:(-]?[ \t]*)?(?:stub|placeholder|заглушк\w*|"
    r"(?:fake|dummy|mock(?:ed)?) (?:data|response|values?|implementation))\b|"
    r"(?://|#)[ \t]*todo\b[:(]?[^\n]{0,40}\breplace (?:with|this|by)\b|"
    r"(?://|#)[ \t]*(?:implement|fill in|finish) (?:later|me|this later)\b|"
    # "// TODO: echten Mailer anbinden", "# TODO: wire up the real client"
    r"(?://|#)[ \t]*todo\b[:(]?[^\n]{0,20}?\b(?:echte[nmr]?|real|actual)\b|"
    # an error thrown in place of the work: "throw new Error('Partial refunds not implemented yet')"
    r"\b(?:throw|raise)\b[^\n]{0,80}?\bnot (?:yet )?implemented(?: yet)?\b[^\n]{0,5}?"
    r"(?:yet|['\"])|"
    # a body that is only a TODO note: "{\n    // TODO: query and send\n}"
    r"\{[ \t]*\n[ \t]*(?://|#)[ \t]*todo\b[^\n]*\n[ \t]*\}|"
    r":[ \t]*\n[ \t]*#[ \t]*todo\b[^\n]*\n[ \t]*(?:pass|\.\.\.)[ \t]*$|"
    # a function whose body is a TODO note and an empty result: "def search(q):\n    # TODO:
    # full-text search\n    return []"
    r"^[ \t]*(?:def|function|func|fn|async def)\b[^\n]*[:{][ \t]*\n"
    r"[ \t]*(?://|#)[ \t]*todo\b[^\n]*\n"
    r"[ \t]*return (?:\[\]|\{\}|none|null|nil|false|0|\"\"|'')?;?[ \t]*$|"
    r"(?://|#)[ \t]*(?:占位|ダミー|임시 구현)",
    re.M,
)


_TODO_LINE = LazyPattern(r"^[ \t]*(?://|#)[ \t]*todo\b[^\n]*", re.M)
_SHORT_BLOCK = 12  # lines (fences included) of a block read for its TODO notes


def stub_in_code(blocks: list[str]) -> str | None:
    """The line of a fenced block (`blocks`, fences included) that marks its code as a
    stand-in, or None."""
    for block in blocks:
        low = block.lower()
        if not any(map(low.__contains__, _CODE_STUB_WORDS)):
            continue
        found = _CODE_STUB.search(low)
        if found:
            return found.group(0).strip()[:120]
        # a short piece of code that is mostly TODO notes: "# TODO: auth … # TODO: write rows"
        notes: list[str] = _TODO_LINE.findall(low)
        if len(notes) >= 2 and low.count("\n") <= _SHORT_BLOCK:
            return notes[0].strip()[:120]
    return None


_MARK_WORDS = ("[", "【")
_PLACEHOLDER_MARK = LazyPattern(
    r"[\[【](?:à compléter|a completar|por completar|da completare|zu ergänzen|tbd|todo|"
    r"заполнить|дописать|待补充|待完善|未記入|작성 예정)[^\]】\n]{0,80}[\]】]"
)


def placeholder_mark(low_text: str) -> str | None:
    """A placeholder left in brackets in the lowercased text (code included), or None."""
    if not any(map(low_text.__contains__, _MARK_WORDS)):
        return None
    found = _PLACEHOLDER_MARK.search(low_text)
    return found.group(0)[:120] if found else None
