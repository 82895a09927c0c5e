"""Words about the conversation: work under way, asking the human, offering more."""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

# "Next ..." or "Then ..." opening a sentence: work announced; not the human's next steps
# ("Next steps on your side: ..."), nor "next" before a later round ("Next release can go
# out the same way"; "next time" stays: a prediction), nor a step told in the past tense
# ("Then migrated the local state: ..."; not "proceed", "seed": "-eed" is no past)
NEXT_OPENER = (
    r"(?:next|then)\b(?! steps? (?:on your (?:side|end)|for you)\b| "
    r"(?:release|version|week|month|sprint)\b| time,? (?:we|you|i) (?:could|might|can)\b| \w+(?<!e)ed\b| (?:ran|re-?ran|wrote|made|built)\b"
    # nor a step suggested, or left to the human: "Next step would be …", "Next, you could
    # …", "Next I'd suggest …", "next: nothing", "next step is review"
    r"|,? (?:you|i'?d)\b|,? (?:steps? )?(?:would|could|might) be\b|:? (?:nothing|none)\b"
    r"| steps? (?:is|are) (?:review|yours|up to you)\b)"
)

# Work still under way, or about to start.
ONGOING: Lexicon = {
    "en": (
        # A sentence's start is written as two patterns, the line start and the end of
        # a sentence before it: opening on `\s`, the second lets `re` skip every other
        # character (same texts found; this category is only searched, never quoted).
        r"^now,? (?:\w+ing|run|on to|let's|for the)\b",
        r"\s(?<=[.!]\s)\s*now,? (?:\w+ing|run|on to|let's|for the)\b",
        # not the agent stopping: "so I'll have to stop here" announces no work
        # nor the agent kept from it ("branch protection won't let me merge it"), nor
        # leaving something as it is ("I'll leave it unchanged"), nor the agent standing by ("I'll stay subscribed to the PR in case comments come in")
        r"\b(?:i'?ll|i will|(?<!n't )(?<!not )let me(?! know)|let's(?! encrypt)|going to|about to|i'?m going to)\b"
        r"(?! (?:have to |need to )?stop (?:here|now|there|for (?:now|today))\b| (?:stay|keep an "
        r"eye|keep watching|be (?:here|around|available)|note\b|leave\b(?=[^.\n]{0,40}?\b(?:as is|as it is|unchanged|alone|untouched|in place|"
        r"for your review|as you asked|for the [\w-]+ team)\b)"
        r"|keep\b(?=[^.\n]{0,40}?\b(?:off|disabled) by default\b))\b)",
        r"\b(?:now|next)[,:]? (?:i'?ll|i'?m|let me|i will|i need to|i have to)\b",
        # not a gerund that is the sentence's subject: "Searching for X now matches only Y"
        r"^\w+ing\b[^.\n]{0,60}\bnow\b(?! \w+s\b)",
        r"\s(?<=[.!]\s)\w+ing\b[^.\n]{0,60}\bnow\b(?! \w+s\b)",
        # not "the workaround we're using" (a state), not "tree-shaking now works"
        r"\b(?:i'm|i’m|i am|we're|we’re|we are|currently) (?:now |still )?(?!using\b|keeping\b)\w+ing\b",
        r"(?<!of )\b(?<!-)\w+ing (?:(?:at|into|on) )?(?:(?:it|them|this|that|these|those|everything) )?now\b",
        rf"^{NEXT_OPENER}",
        rf"\s(?<=[.;:]\s)\s*{NEXT_OPENER}",
        # not the next step left to the human ("that's the next step whenever you want it")
        r"\bnext (?:up|step(?!,? (?:whenever|if|when|once) you\b|s? (?:would|could|might) be\b|"
        r" (?:is|are) (?:review|yours|up to you)\b|s? (?:on your (?:side|end)|for you)\b)|i'?ll)\b",
        r"\bmoving on\b",
        # "waiting for the Windows CI job before I call this done"
        r"\bbefore i call (?:this|it) (?:done|finished|complete)\b",
        r"\bin progress\b",
        r"⏳|⬜",
        r"\bhalfway\b",
        r"\bstep \d+ (?:of|/) ?\d+\b",
        # not "Task 6 of 6: … — done." (the last one, finished)
        r"\b(?:task|phase|part) \d+ ?(?:of|/) ?\d+\b(?![^.\n]{0,80}?\b(?:done|complete|completed|finished)\b)",
        r"\bstill (?:running|working|failing|need)\b",
        r"\bresuming\b",
        # "`/attachments` and `/webhooks` next. Tests for the three pass; continuing."
        r"[;,.] continuing\b|\band continuing\b",
        r"\bworking on\b",
        r"^(?:on it|starting|reading|scanning|looking|analy[sz]ing|investigating|checking|"
        r"running|writing|exploring|searching|continuing|building|waiting)\b"
        r"(?![^.\n]{0,60}\bnow \w+s\b)",  # the subject: "searching for X now matches ..."
        # the agent's own "will ...": opening a sentence (written as two, as above), or
        # after "we" ("I will" is above); not "the bot will post ..."
        r"^will (?:report|post|follow up|update|do|change|adjust|get back)\b",
        r"\s(?<=[.!]\s)\s*will (?:report|post|follow up|update|do|change|adjust|get back)\b",
        r"\bwe will (?:report|post|follow up|update|do|change|adjust|get back)\b",
        # not "anything unmatched after that stays …" (a time in a description)
        r"\bafter that\b(?! (?:stays|remains|is|are|gets|goes|will be)\b)",
        # not "the first day of next month" (a date)
        r"\b(?:first|remaining|rest) (?:\w+ ){0,3}(?:come|comes|next(?! (?:month|week|year|day)\b)|"
        r"to do|left)\b",
        r"\bcome after\b",
        # not a state the sentence ends on: "It's approved by 1 person so far."
        r"\bso far\b(?!\.?$)",
        # not a gerund the sentence is about: "so rerunning it is safe"
        r"\bre-?running\b(?! (?:(?:it|this|that|them|these|those) )?(?:is|was|would|will|should|"
        r"won't|isn't|can|could|may|might)\b)",
        r"\b(?:going|working) through\b",
    ),
    "de": (
        # not "danach storniert" (cancelled afterwards): done, not to do
        r"\b(?:mir fehlt noch|es fehlt noch|ich kümmere mich|danach(?! (?:\w+ )?(?:ge\w+[te]|\w+iert)\b))\b",
        r"\bich (?:baue|stelle|schreibe|mache|lasse|prüfe|teste|ändere|passe|korrigiere|füge|starte|kümmere|sehe|schaue|behebe|migriere|aktualisiere|untersuche)\b",
        # not "Als Nächstes könnte man …" (next one could …: a suggestion)
        r"\b(?:ich mache weiter|als nächstes(?! (?:könnte|könnten|würde|sollte|wäre|kann man)\b)|"
        r"jetzt (?:\w+ )?(?:ich|kümmere)|ich werde|läuft gerade|in arbeit|weiter mit)\b",
        # "Zwischenstand: …", "Mache mit `users.go` und `billing.go` weiter."
        r"^zwischenstand\b",
        r"\bmache (?:mit|bei) [^.\n]{0,60}\bweiter\b",
        r"\bfehlen noch\b",
        r"\b(?:mache|kümmere) ich (?:mich )?(?:jetzt|als nächstes)\b",
    ),
    "es": (
        r"\b(?:me falta|queda pendiente|me encargo)\b",
        # "después ajusto …", "después lo pruebo …" (then I …); not "después de …", nor a
        # before/after table's "Después" row
        r"\bdespués,? (?:lo |la |los |las |le |les |me |se )?(?!de\b|del\b)\w+o\b",
        r"\b(?:añado|vuelvo a|corrijo|reviso|ejecuto|lanzo|pruebo|arreglo|agrego|actualizo|investigo|escribo|migro)\b",
        # "Primero verifico el directorio y luego ajusto el filtro": first I ..., then I ...
        r"\b(?:primero|luego) (?:verifico|compruebo|ajusto|modifico|cambio|creo|instalo|"
        r"configuro|elimino|quito|genero|implemento|limpio|muevo|renombro|busco|leo|abro|edito)\b",
        # not "a continuación tu equipo puede …" (next, your team can …: the human's step)
        r"\b(?:voy a|ahora (?:\w+ )?(?:estoy|voy)|sigo con|continúo|en curso|"
        r"a continuación(?!,? (?:tu|su|vuestro|vuestra|puedes|podéis|puede|usted|el equipo)\b)|"
        r"estoy (?:\w+ando|\w+iendo))\b",
        r"\bempiezo (?:por|con)\b",
        # "I will …" / "we're going to …" ("Empezaré con la fase 2", "vamos a proceder")
        r"\b(?:empezaré|comenzaré|procederé|continuaré|seguiré|implementaré|crearé|revisaré|"
        r"corregiré|actualizaré|añadiré|agregaré|ejecutaré|probaré|ajustaré|modificaré)\b",
        r"\bvamos a (?:proceder|implementar|empezar|comenzar|crear|revisar|corregir|actualizar|"
        r"añadir|agregar|ejecutar|probar|ajustar|modificar|arreglar|integrar|configurar)\b",
    ),
    "fr": (
        r"\bje passe\b",
        r"\bpuis (?:je|j')",
        r"\bje m'en occupe\b",
        r"\bil me reste\b",
        r"\b(?:je |j')\w+e maintenant\b",  # "J'importe maintenant les réglages"
        r"\breste à faire\b",
        r"\b(?:je |j')(?:relance|lance|ajoute|corrige|regarde|teste|modifie|mets|refais|réécris|vérifie|écris|migre|examine)\b",
        r"\b(?:je corrige|je reviens|je vais|ensuite|en cours|je continue|je m'occupe|"
        r"je passe à)\b",
        r"\bje commence\b",
        r"\bil reste à\b",
    ),
}

# Asking the human without a question mark, or to approve a step.
ASK: Lexicon = {
    "en": (
        r"\b(?:without|until i (?:get|have)|before i get) your (?:explicit |clear )?(?:ok|okay|"
        r"go-ahead|approval|confirmation|sign-off|green light)\b",
        # (a sentence's start written as lookbehinds: the piece then opens on its words)
        r"(?:(?<!.)|(?<=[.!;:]\s))point me (?:at|to)\b",
        # a question closing a line without its mark: "ok to force-push", "which wins",
        # "is that intentional, or a bug I should fix"
        r"(?:(?<!.)|(?<=[.!:;]\s))(?:ok(?:ay)? to|which (?:one|wins|do you|should)|is (?:that|this) "
        r"(?:intentional|expected|ok|okay|right|deliberate)|should i|shall i)\b[^.?!\n]*$",
        # "the client secret was rotated; I need the new one"
        r"\bi need (?:the|a) new (?:one|key|token|secret|password|credentials?)\b",
        # "rerun me with the docker permission and I'll pick up at step 3"
        r"\b(?:rerun|re-run|restart|relaunch) me\b",
        r"\bneed (?:your|a) (?:pick|decision|call|input|go-?ahead|approval|confirmation|answer|"
        r"choice|preference)\b",
        r"\byour call\b",
        r"\bplease (?:confirm|advise|choose|pick|"
        r"decide|tell me|verify|clarify|review and|provide|specify|send|run|paste|check "
        r"whether)\b",
        r"\bplease let me know (?:which|whether|what|how|when)\b",
        r"\btell me (?:which|whether|if|what|how|when)\b",
        r"\blet me know (?:which|whether|"
        r"what|how|when you want|if you(?:'d)? (?:want|prefer|like))\b",
        r"\b(?:waiting|awaiting|holding off) (?:for|on|until) (?:your|you)\b",
        r"\bawaiting your\b",
        r"\buntil you confirm\b",
        r"\bwhen approved\b",
        r"\bonce you "
        r"(?:tell|confirm|decide|approve)\b",
        r"\bready to \w+ when (?:you|approved)\b",
        r"\b\(y/n\)",
        r"\bsay (?:the word|go)\b",
        r"\bi (?:want|need) (?:an? )?(?:explicit |clear )?(?:go|go-ahead|ok|okay|approval|"
        r"sign-off|confirmation) from you\b",
    ),
    "de": (
        r"\b(?:ohne|vor) (?:dein|ihr|eure)\w* (?:ok|okay|freigabe|zustimmung|bestätigung|go)\b",
        r"\bsoll ich\b",
        r"\bbitte (?:bestätige|entscheide|sag)\b",
        r"\bgib mir bescheid\b",
        # "kopier die komplette Fehlermeldung hier rein"
        r"\b(?:kopier|kopiere|schick|schicke|sende|füg|füge)\w* [^.\n]{0,60}\b(?:hier rein|hierher|mir)\b",
    ),
    "es": (
        r"\b(?:sin|hasta tener) tu (?:ok|visto bueno|confirmación|aprobación|autorización)\b",
        r"\bdime (?:si|qué|cuál)\b",
        # "Pásame el `.har` … y sigo": give me / send me
        r"\b(?:pásame|mándame|envíame|compárteme|pégame|pasame|mandame|enviame|pegame)\b",
        # "necesito que añadas `facturas/pdf.py` al chat": the human's part, subjunctive
        r"\bnecesito que (?:me )?\w+(?:as|es)\b",
        # "pon las credenciales correctas y vuelvo a probar"
        r"\b(?:pon|añade|agrega|configura|actualiza|dame|cambia)\b[^.\n]{0,80}\by (?:vuelvo a|sigo|continúo)\b",
        # not a step of usage instructions ("4. Confirma la eliminación en el diálogo")
        r"\bconfírma(?:me|lo)\b|\bconfirma(?:me)? (?:si|que)\b",
    ),
    "fr": (
        r"\b(?:sans|avant) (?:ton|votre) (?:accord|feu vert|confirmation|validation|ok)\b",
        r"\bdites-moi\b",
        # a request to confirm, not "je confirme" (I confirm) nor "ce qui confirme l'hypothèse"
        # (the indicative, which the imperative "confirme" spells alike)
        r"\bconfirmez\b",
        r"\bconfirme-(?:moi|le|la|les)\b",
        r"\b(?:pouvez-vous|peux-tu|pourriez-vous|pourrais-tu|merci de|veuillez)(?: me)? confirmer\b",
        r"(?<!je )(?<!qui )(?<!cela )(?<!ça )\bconfirme (?:que|si)\b",
        r"\bdois-je\b",
        r"\bvoulez-vous\b",
        r"\bpréférez-vous\b",
        r"\bsouhaitez-vous\b",
    ),
}

# A closing question that only offers more help after finished work. Strong offers
# stay offers whatever they list; the others count only without an "A or B" choice.
OFFER_STRONG: Lexicon = {
    "en": (
        r"\banything else\b",
        r"\blet me know if you(?:'d)? (?:want|like|need)\b",
        r"\bhappy to\b",
        r"\bfeel free\b",
        r"\bany other (?:changes|improvements|questions)\b",
    ),
    "de": (r"\bnoch etwas\b", r"\bsonst noch\b"),
    "es": (r"\balgo más\b",),
    "fr": (r"\bautre chose\b",),
    # "if you want" (its article "o" would read as a Spanish "or" choice)
    "pt": (
        r"\bse (?:quiser|preferir|desejar|você quiser)\b",
        r"\bmais alguma coisa\b",
        r"\bposso ajudar (?:em|com) mais\b",
    ),
    # "anything else (I can help with)?" in the other languages agents close on
    "it": (r"\bqualcos'?altro\b", r"\bposso aiutarti (?:in|con) (?:altro|qualcos)"),
    "nl": (
        r"\b(?:kan ik je )?(?:nog )?ergens (?:anders )?mee helpen\b",
        r"\bnog iets (?:anders)?\b",
    ),
    "pl": (r"\bczy mogę (?:ci )?(?:jeszcze )?(?:w czymś )?pomóc\b", r"\bcoś jeszcze\b"),
    "ru": (
        r"\bчем[- ]?(?:то|нибудь) ещё (?:могу )?помочь\b",
        r"\b(?:что|чем)[- ]нибудь ещё\b",
        r"\bмогу (?:ли я )?(?:ещё )?чем[- ]?(?:то|нибудь) помочь\b",
    ),
    "uk": (
        r"\b(?:ще )?чимось (?:ще )?допомогти\b",
        r"\b(?:потрібно|треба) ще щось\b",
        r"\bщось ще\b",
    ),
    "tr": (r"\bbaşka bir (?:isteğiniz|şey|konu)\w*\b", r"\bbaşka (?:bir )?konuda yardımcı\b"),
    "vi": (
        r"\b(?:bạn )?cần (?:mình|tôi|em) (?:làm|hỗ trợ|giúp) (?:gì )?thêm\b",
        r"\b(?:mình|tôi|em) có thể giúp gì thêm\b",
    ),
    "id": (r"\bada lagi yang bisa (?:saya|aku) bantu\b", r"\bada (?:hal )?lain yang\b"),
    "zh": (r"还有(?:什么|其他|别的)(?:需要|要|可以)", r"还需要我(?:做|帮)"),
    "ja": (r"他に(?:何か|お手伝い)", r"ほかに(?:何か|お手伝い)"),
    "ko": (r"더 (?:도와|필요하신)", r"다른 (?:도움이|필요하신|요청)"),
}

OFFER: Lexicon = {
    "en": (
        r"\bwould you like (?:me )?to (?:also |now )?\w+",
        r"\b(?:do you )?want me to (?:also )?\w+",
        r"\bshall i (?:also )?\w+",
        r"\bshould i (?:also )?(?:commit|push|open|create|merge|deploy|"
        r"run|smoke)\b",
        r"\bif you(?:'d)? (?:want|like)\b",
    ),
    "de": (
        r"\bsoll ich noch\b",
        r"\b(?:wenn|falls) (?:du|sie) (?:das |es )?(?:magst|möchtest|willst|möchten|wollen)\b",
    ),
    "es": (r"\bquieres que\b", r"\bsi (?:quieres|prefieres|lo deseas)\b"),
    "fr": (
        r"\bsouhaitez-vous que je\b",
        r"\bsi (?:tu veux|vous voulez|vous le souhaitez|tu le souhaites)\b",
    ),
    "zh": (r"需要我", r"要不要我", r"是否需要", r"我可以(?:再|帮|继续)"),
    "ja": (r"しましょうか", r"いたしましょうか"),
    "ko": (r"(?:해|드릴|할)까요",),
    "ru": (
        r"\bхотите,? (?:чтобы )?я\b",
        r"\bмогу (?:также|ещё|еще)\b",
        r"\bесли (?:нужно|надо|хотите)\b",
    ),
    "uk": (r"\bхочете,? щоб я\b", r"\bможу (?:також|ще)\b", r"\bякщо (?:потрібно|треба|хочете)\b"),
    "pt": (
        r"\bquer que eu\b",
        r"\bposso (?:também|tambem)\b",
    ),
    "it": (r"\bvuoi che (?:io )?\w+", r"\bposso anche\b", r"\bse (?:vuoi|preferisci)\b"),
    "vi": (r"\bbạn có muốn tôi\b",),
    "id": (r"\bapakah (?:anda|kamu) ingin saya\b", r"\bmau saya\b"),
    "tr": (r"\bister misiniz\b",),
    "pl": (r"\bczy chcesz, (?:żebym|abym)\b",),
    "nl": (r"\bzal ik\b", r"\bwil je dat ik\b"),
}
