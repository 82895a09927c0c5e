"""What the human's prompt asks: a question, work to be done, or an error it pasted.

Read on the turn's prompt, not the agent's words (`judge.rules.task.prompt_kind`): an
answer to a question needs no test evidence. Matched against lowercased text like every
lexicon.
"""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

# The human's prompt asks something (an answer needs no test evidence).
PROMPT_QUESTION: Lexicon = {
    "en": (
        r"^\W*(?:what|why|how|where|when|which|who|whose|is|are|was|were|does|do|did|can|could|should|would|"
        r"will|have|has|explain|tell me|describe|research|analy[sz]e|review|audit|summari[sz]e|"
        r"investigate|find out|check (?:if|whether)|look into|compare)\b",
        r"[?？]",
    ),
    "cjk": (
        r"吗",
        r"什么",
        r"为什么",
        r"怎么",
        r"如何",
        r"是否",
        r"多少",
        r"ですか",
        r"ますか",
        r"でしょうか",
        r"なぜ",
        r"どう",
        r"어떻게",
        r"왜",
        # "tell me / explain": 告诉我, 教えて, 알려줘, 설명해
        r"告诉我",
        r"解释一下",
        r"教えて",
        r"알려 ?(?:줘|주세요|주실)",
        r"설명해",
    ),
    "other": (
        r"^\W*(?:что|как|почему|где|когда|какой|зачем|що|як|чому|де|o que|por que|como|onde|qual|quando|"
        r"perché|come|dove|quale|cosa|tại sao|làm sao|nasıl|neden|dlaczego|jak|gdzie|warum|wie|was|"
        r"pourquoi|comment|qué|cómo|dónde)\b",
        # "tell me / explain" opening the prompt
        r"^\W*(?:расскажи|объясни|подскажи|розкажи|поясни|dime|explícame|explica|diga-me|"
        r"explique|dis-moi|explique-moi|erklär|erkläre|sag mir|spiegami|dimmi)\b",
        # a review of a change asked for: the review is the answer ("revisa el PR 58", "relis
        # la PR"); not "revisa por qué …" (find out why: work)
        r"^\W*(?:revisa|revise|revisar|rivedi|relis|relisez|überprüfe?|prüfe?|audita)\s+"
        r"(?:el |la |le |les |den |die |das |o |a |il |lo |os |as |i )?(?:pr|pull request|"
        r"merge request|mr|código|codigo|code|diff|commit|cambios|changements|änderungen|"
        r"modifiche|alterações)\b",
    ),
}

# The human's prompt asks for work to be done.
PROMPT_TASK: Lexicon = {
    "en": (
        r"^\W*(?:please |pls |can you |could you )?(?:fix|add|implement|update|change|make|write|create|"
        r"remove|delete|refactor|migrate|build|deploy|run|resolve|set up|install|convert|rename|move|"
        r"clean|commit|push|merge|test)\b",
    ),
    "other": (
        r"修复",
        r"修改",
        r"实现",
        r"添加",
        r"删除",
        r"创建",
        r"更新",
        r"部署",
        r"重构",
        r"改成",
        r"帮我",
        r"してください",
        r"\bисправь",
        r"\bсделай",
        r"\bдобавь",
        r"\bудали",
        r"\bcrie\b",
        r"\bcorrija\b",
        r"\badicione\b",
        r"\bimplementa\b",
        r"\barregla\b",
        r"\bcrea\b",
        r"\bagrega\b",
        r"\belimina\b",
    ),
}

# Agents' words for a turn that could not finish (pasted by the human in the prompt).
PROMPT_ERROR: Lexicon = {
    "any": (
        r"error|exception|traceback|failed|错误|エラー|ошибк|报错|不行|没用|还是|not work|doesn't work|"
        r"still (?:broken|failing|not)|isn'?t working",
    ),
}
