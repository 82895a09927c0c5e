"""Cues read by the scorer and the sure-deliver checks (real agents' phrasing).

Learned from how real agents end their turns: requests to the human without a question
mark, blockers named in passing, verification handed to the human, work admitted
unfinished (the agent's own run failing: `own_failures.py`). Matched against lowercased
text like every lexicon.
"""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

# A request the human must answer or act on, even without a question mark.
ASK_SURE: Lexicon = {
    "en": (
        r"\bcould you (?:please )?(?:clarify|confirm|provide|share|tell me|let me know|specify|"
        r"paste|run|check|send|explain|describe|give me|point me)\b",
        r"\bcan you (?:please )?(?:clarify|confirm|provide|share|tell me|paste|run|check|send|specify)\b",
        r"\bi need (?:some |a bit more |more )?(?:clarification|more (?:information|details|context)|you to)\b",
        r"\b(?:please )?add (?:these|the following|them|those) (?:\w+ ){0,2}to the chat\b",
        r"\b(?:reply|respond|answer) (?:with )?['\"“*`]",
        # the same in the prose, where a quoted or inline-code answer reads "quote", "code"
        r"\b(?:reply|answer) (?:with )?(?:quote|code)\b(?! \d)",
        r"\breturn here and\b",
        r"\byou would need to (?:provide|share|add|give)\b",
        r"\bplease (?:share|send|paste|provide|upload)\b",
        r"\bsend me (?:a |the )?(?:screenshot|output|log|result)",
        r"\bpaste (?:it|them|(?:the |your )?(?:\w+ ){0,2}(?:output|result|error|log|logs|traceback|"
        r"response)) here\b",
        # "Run it with the CI env and paste the output:" (what the agent waits on)
        r"\b(?:and|then) paste (?:the|its|your) (?:\w+ ){0,2}(?:output|result|error|log|logs|traceback)\b",
        # "Tell me the base branch and I'll open the PR" (not "give me a moment and I'll ...")
        r"\b(?:tell|send|show) me (?!a (?:moment|sec|second|minute|bit)\b)(?:\w+ ){1,4}and i'?ll\b",
        r"\bgive me (?:the|a|your) (?:go-?ahead|green light|ok|okay|thumbs up|sign-?off)\b",
        # "Reply with approval to keep it, or tell me to move it to db/manual/"
        r"\breply with (?:your )?(?:approval|a yes|yes|ok|okay|go-?ahead|a go)\b",
        r"\bor tell me to\b",
        r"\bwhich (?:one|option|approach|of these) (?:do|would) you\b",
        # "I see three options: 1. … 2. … Which would you like me to do?"
        r"\bwhich (?:\w+ )?would you (?:like|prefer)\b",
        # "Let me know A or B and I'll wire it up" (not "let me know if …", "let me know and
        # I'll help": offers)
        r"\blet me know (?!if\b|and\b)[^.\n]{0,30}\band i'?ll\b",
        # a phase gated on the human's review: "let me know if the requirements look right
        # so I can move on to the design phase"
        r"\blet me know if\b[^.\n]{0,60}\bso (?:that )?i can (?:move on|proceed|continue|start|go ahead)\b",
        r"\bhow would you like (?:me|to)\b",
        r"\blet me know (?:once|when|after)\b",
        # a decision put to the human: "let me know if I should move on to the design"
        r"\b(?:let me know|tell me) (?:if|whether) (?:i|we) should\b",
        r"\btell me (?:once|when)\b",
        r"\b(?:ping|message|notify) me (?:once|when|after)\b",
        r"\bi'?ll wait for your?\b",
        r"\b(?:awaiting|waiting (?:for|on)) your\b",
        r"\bneed your (?:ok|okay|go-?ahead|approval|confirmation|sign-off)\b",
        r"\bwaiting for you to\b",
        r"\bonce you'?ve (?:done|run|completed|logged|added|set|created|granted|approved|picked|"
        r"chosen|decided|reviewed|confirmed)\b",
        # "To start the transformation, choose the target JDK"; "Which combination you want
        # decides what I commit next"
        r"\bto (?:start|continue|proceed|go on)\b[^.\n]{0,40}, (?:please )?(?:choose|pick|select|confirm)\b",
        r"\bwhich (?:\w+ ){0,2}you (?:want|prefer|pick|choose) decides\b",
        # the agent's next step waits on the answer (more in `sure.waits_on_request`)
        r"\bconfirm (?:that )?you want\b",
        r"\bconfirm (?:that )?you'?re (?:fine|ok|okay|happy|good)\b",
        # a choice before a step that can't be undone: "Before I push: squash or keep the 5
        # WIP commits"; a bare "Confirm." closing the message; an account only the human pays
        r"\bbefore i (?:push|merge|deploy|run|delete|send|ship|release)\s?:",
        r"(?:^|[.!?:]\s)(?:please )?confirm[.!]?$",
        r"(?<!i'll )(?<!to )\b(?:upgrade|top up|renew) (?:the|your) (?:account|plan|subscription)\b",
        # "For those 4, confirm whether the CMS still uses them" (not "I'll confirm whether")
        r"(?<!i'll )(?<!i will )(?<!let me )(?<!to )\bconfirm (?:whether|if|which)\b",
        # "please approve before I run `push_prices --notify`"
        r"\b(?:approve|confirm)(?: (?:this|it|that))? before (?:i|we)\b",
        r"\b(?:pick|choose) one\b",
        r"\b(?:then|and) tell me\b",
        # a choice made, left to the human's veto: "I'll go with MinIO unless you'd prefer
        # the mock" (read in the ending, like every request here)
        r"\bunless you(?:'d| would)? (?:prefer|rather)\b",
        # the next step gated on the human's approval: "I'll start as soon as you approve"
        r"\b(?:as soon as|once|when) you (?:approve|confirm|sign off|give (?:me )?the go-?ahead|"
        r"validate|pick|choose|decide)\b[^.\n]{0,60}?\bi(?:'ll| will)\b",
        r"\bi(?:'ll| will) (?:\w+ ){1,6}(?:as soon as|once) you (?:approve|confirm|sign off|"
        r"give (?:me )?the go-?ahead|validate|pick|choose|decide)\b",
        # an IDE's approval button, a word to type, a fix held for the human's answer
        r"\bclick \**(?:run|accept|approve|allow|apply|continue|proceed|keep)\b[^.\n]{0,60}"
        r"\bif (?:that'?s|this is|it'?s|you'?re) (?:fine|ok|okay|good|happy)\b",
        r"\btype (?:\*\*\w+\*\*|['\"“]\w+['\"”]?|quote|code) (?:when you|and i'?ll|once you|if you)\b",
        r"\b(?:i'?ll|i will) (?:hold|wait|pause|hold off)\b[^.\n]{0,40}\buntil (?:i (?:know|hear)|you)\b",
        r"\bdon'?t want to \w+ (?:\w+ ){0,3}without (?:knowing|your|you)\b",
        # "**What I need from you** Either give me ..., or tell me it's fine to run ..."
        r"\bwhat i need from you\b",
        # "First, I need to ask you for your EPA AirNow API key:"
        r"\bi need to ask you (?:for|to|about|which|whether)\b",
        # a precondition on the human's machine: "Please ensure that Docker Desktop is installed
        # and running on your Windows machine."
        r"\bplease (?:ensure|make sure) (?:that )?[^.\n]{0,60}\b(?:is|are) (?:installed|running|"
        r"enabled|started|available)\b",
        # "The next step is yours: flash the board."
        r"\b(?:the )?next step is (?:yours|on you|on your side)\b",
        # "I'll need the serial port name your board enumerates as ... With that I'll run ..."
        r"\bi(?:'ll| will) need (?:you to|your)\b",
        r"\bi(?:'ll| will) need the\b[^.\n]{0,200}\.\s+(?:with (?:that|it|this)|once i have "
        r"(?:it|that|them))\b,? i(?:'ll| will)\b",
        r"\btell me (?:if |whether )?it'?s (?:fine|ok|okay|safe) to\b",
    ),
}

# Something outside the agent's control, named plainly.
BLOCKED_SURE: Lexicon = {
    "en": (
        r"\bblocked by (?:\w+ ){0,2}(?:firewall|proxy|policy|permissions?|sandbox|network)",
        r"\bfirewall rules? blocked\b",
        r"\bpermission (?:issues?|restrictions?) (?:with|that|are|is|prevent)",
        r"\brequires? (?:administrator|admin|root|sudo|elevated) (?:privileges|rights|access)\b",
        r"\bcan(?:no|')?t proceed (?:because|until|without)\b",
        r"\bcan(?:no|')?t (?:[\w-]+ ){1,6}until (?:\w+ ){0,3}(?:is|are|gets?|has been|have been) "
        r"(?:added|restored|fixed|granted|back|available|topped up|renewed|reset)\b",
        r"\byou haven'?t granted\b",
        # contradictory requirements: "two things that can't both hold", "which rule wins ...
        # is a product/compliance call, not mine"
        r"\bcan'?t both (?:hold|be true|apply|be met)\b",
        # a role only someone else holds: "Enabling it needs Owner/Editor on that project";
        # "both of those are for the security team to decide and configure"
        r"\b(?:needs|requires) (?:the )?(?:owner|editor|admin)(?:/(?:owner|editor|admin))? "
        r"(?:role |rights |access |permissions? )?(?:on|in|for) (?:that|the|this|your)\b",
        # a service the task needs is down: "I'll need staging back before these tests mean
        # anything", "the status page shows an incident"
        r"\bi'?ll need (?:\w+ ){1,3}back (?:before|to|first)\b",
        # a payment or an owner the account needs: "The team needs a verified payment method",
        # "needs the app to be re-installed by the store owner"
        r"\b(?:needs?|requires?) (?:a |an )?(?:verified |valid |new )?(?:payment method|credit card|"
        r"billing account)\b",
        r"\b(?:needs?|requires?) [^.\n]{0,60}\bby (?:the |a |an |your )?(?:store |shop |account |"
        r"workspace |org(?:anization)? |project )?(?:owner|admin(?:istrator)?)\b",
        # "Someone with the Apple dev account has to export it"; credentials the sandbox lacks;
        # a spending limit the org hit
        r"\bsomeone with (?:the |an? |your )?[^.\n]{1,40}? (?:has to|needs to|must|will have to)\b",
        r"\bno (?:\w+ )?credentials (?:in|on|for) (?:the |this )?(?:sandbox|environment|container|"
        r"machine|ci)\b",
        r"\b(?:hit|reached) (?:the|its|their|your) (?:\w+ )?spending limit\b",
        # a step only a person there can take: "has to be done by someone in the room"
        r"\bhas to be (?:done|pressed|approved|signed|entered|granted) by (?:someone|a person|you|"
        r"an? (?:admin|owner))\b",
        r"\bstatus page (?:shows|reports|lists) an? (?:incident|outage)\b",
        r"\b(?:is|are) for (?:the |your )?(?:\w+ )?(?:team|admins?|owners?|lead|dba|ops) to "
        r"(?:decide|configure|approve|grant|set up|enable)\b",
        # "The workspace needs credits added in the Console before I can do the test"
        r"\bneeds? (?:\w+ ){0,2}(?:added|enabled|granted|approved|topped up|renewed|purchased) "
        r"[^.\n]{0,60}\bbefore i can\b",
        r"\b(?:call|decision),? not mine\b",
        r"\brequested permissions? to\b",
        # not a number going down ("errors are down from 47 to 12")
        r"\b(?:is|are) (?:down|unreachable|unavailable|offline)\b(?! (?:from|to|by)\b)",
        r"\boutage\b",
        r"\bservice unavailable\b",
        # hardware the agent cannot plug in itself
        r"\bno (?:android |ios |usb |serial )*(?:devices?|phones?|boards?|emulators?|simulators?) "
        r"(?:is |are )?(?:connected|attached|visible|found|detected|available|present)\b",
        r"\bthe (?:board|device|phone|dongle|printer|reader) (?:isn'?t|is not) (?:connected|plugged in)\b",
        r"\b(?:i'?m|i am) unable to (?:[\w-]+ ){1,6}because\b",
        # an account-level role, not a role of the app being built ("only admins can delete")
        r"\bonly (?:the |an? |your )?(?:[\w-]+ ){0,3}(?:account (?:holder|owner|admin)|org(?:anization)? "
        r"(?:owner|admin)|billing (?:owner|admin)|workspace owner)s?\b[^.\n]{0,40}\bcan\b",
    ),
    # "I can't go on until ..."; the other languages in `trouble_world.BLOCKED_SURE_WORLD`
    "de": (
        r"\bkann (?:ich )?(?:\w+ ){0,4}erst (?:\w+ ){0,4}wenn\b",
        # contradictory requirements: "zwei Anforderungen widersprechen sich"
        r"\bwidersprechen sich\b",
        r"\bbeides (?:gleichzeitig |zugleich )?geht nicht\b",
        r"\bkann nur (?:der|die|ein|eine) (?:\w+ )?(?:admin|administrator|inhaber|besitzer|owner)\w*\b",
        # "Der Kunde muss dev@… in App Store Connect einladen. Danach kann ich signieren."
        r"\b(?:der kunde|die kundin|der admin|der administrator|die administratorin|der inhaber|"
        r"die inhaberin)\b[^.\n]{0,60}\bmuss\b",
    ),
    "es": (
        r"\bno puedo (?:\w+ ){1,6}hasta que\b",
        # "Esto solo lo puede cambiar el propietario o un administrador de la cuenta"
        r"\bs[oó]lo (?:lo |la |los |las )?pueden? (?:\w+ ){0,2}(?:el |la |un |una )?"
        r"(?:propietari[oa]|administrador\w*|admin|dueñ[oa])\b",
        # "El propietario de la tienda tiene que crearte una cuenta"
        r"\bel (?:propietari[oa]|administrador|dueñ[oa]|titular)\b[^.\n]{0,40}\btiene que\b",
    ),
    "fr": (
        r"\bje ne peux pas (?:\w+ ){1,6}(?:tant que|avant que)\b",
        # "an organisation admin has to ...": only that person can act
        r"\bil faut qu['’]un (?:administrateur|admin|propriétaire|responsable)\b",
        r"\bje n['’]ai pas d['’]autre accès\b",
    ),
}

# Verification handed to the human: "try it", "reload and check", "to test: ...".
HANDOFF: Lexicon = {
    "en": (
        r"\btry (?:it|again|refreshing|reloading|accessing|running|restarting|relaunching|now|visiting|opening)\b",
        r"\b(?:refresh|reload|restart|relaunch|rebuild) (?:the|your)\b",
        r"\bto test(?: it| this)?:",
        r"\bhow to test\b",
        r"\byou can (?:now )?test\b",
        r"\bplease test\b",
        r"\btest it (?:out|again)\b",
    ),
    "zh": (
        r"请(?:尝试|刷新|重新|测试|访问|重启)",
        r"重新启动",
        r"刷新页面",
        r"测试一下",
        r"试一下",
    ),
    "ja": (r"再起動", r"リロード", r"試してください", r"確認してください"),
    "ko": (r"새로고침", r"다시 시작"),
    "ru": (r"\bперезапустите\b", r"\bобновите страниц", r"\bпопробуйте\b", r"\bпроверьте\b"),
    "es": (r"\brecarga\b", r"\bprueba\b", r"\bpara probar\b"),
    "fr": (r"\brechargez\b", r"\bessayez\b", r"\btestez\b", r"\bpour tester\b"),
    "de": (r"\bzum testen\b", r"\bprobier\w*\b", r"\blade (?:die seite )?neu\b"),
    "it": (r"\bricarica\b", r"\bprova\b"),
    "pt": (r"\brecarregue\b", r"\bteste\b", r"\btente\b"),
    "id": (r"\bsilakan (?:di)?coba\b", r"\bcoba (?:lagi|sekarang|refresh|muat ulang)\b"),
}

# Work admitted unfinished.
REMAINING: Lexicon = {
    "en": (
        r"\bremaining (?:issues|failures|tests|errors|work|items|steps|tasks)\b",
        r"\bstill (?:failing|fail|broken|need|needs|to do|pending)\b",
        # `\d(?<!\w\d)\d*` is `\b\d+` opening on the digit (see SPECIFIC_CHECK)
        r"\d(?<!\w\d)\d* (?:tests? )?(?:still )?fail(?:ing|ed)?\b",
        r"\b(?:significant|good|some) progress\b",
        r"\bpartially\b",
        r"\bpending\b",
    ),
    "cjk": (r"还有", r"剩余", r"尚未", r"未完成", r"残り", r"未完了", r"남은"),
    "other": (
        r"\bосталось\b",
        r"\bещё не\b",
        r"\bеще не\b",
        r"\bquedan\b",
        r"\bil reste\b",
        r"\bancora\b",
    ),
}

# An acknowledgement with nothing done yet.
ACK: Lexicon = {
    "any": (
        r"^\W*(?:got it|understood|noted|will do|roger|明白了|了解|わかりました|承知|알겠습니다|понял|"
        r"entendido|compris|capito|entendi|verstanden)",
    ),
}

# Work continuing somewhere else: a background job, a promise to report back.
BACKGROUND: Lexicon = {
    "en": (
        r"\b(?:launched|started|kicked off|spawned) (?:a |an |the )?(?:\w+ ){0,3}(?:agent|subagent|task|job|process|build|analysis)\b",
        r"\bin the background\b",
        r"\byou'?ll receive\b",
        r"\bshortly\b",
    ),
}

# A claim that code now works (needs verification), in several languages.
FIX_CLAIM: Lexicon = {
    "en": (r"\b(?:fixed|resolved|solved|implemented|works now|now works|is working|addressed)\b",),
    "other": (
        r"修复",
        r"解决",
        r"实现",
        r"解決",
        r"実装",
        r"해결",
        r"구현",
        r"\bисправ",
        r"\bcorrig",
        r"\brésolu",
        r"\brisolt",
    ),
}

# Verification stated with specifics: counts, "N/N passing", exit code 0.
# `\d(?<!\w\d)\d*` matches what `\b\d+` matches (a digit with no word character before
# it, then more digits), but opens on the digit: `re` then skips to digits at once
# instead of trying every position (these are searched on the whole text).
SPECIFIC_CHECK: Lexicon = {
    "en": (
        r"\d(?<!\w\d)\d*\s*/\s*\d+ (?:\w+ ){0,2}(?:tests?|specs?|checks?|cases?)?\s*"
        r"(?:pass|passed|passing|green|ok)\b",
        r"\d(?<!\w\d)\d* (?:\w+ ){0,3}(?:tests?|specs?|cases?) (?:\w+ ){0,2}"
        r"(?:pass|passed|passing|succeeded)\b",
        r"\ball \d+ (?:\w+ ){0,2}(?:tests?|specs?|checks?)\b",
        r"\b(?:tests?|specs?)\s*[:：]\s*\d+\s*/\s*\d+",
        r"\b0 (?:failures|failed|errors)\b",
        r"\bexit(?:ed)? (?:with )?(?:code )?0\b",
    ),
}
