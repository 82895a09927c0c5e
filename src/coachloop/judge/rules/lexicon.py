"""The rules' vocabulary, as data: regular expressions per category and language.

Each category is compiled into one case-insensitive alternation. Patterns match the
agent's own prose (code, inline code and quotes already removed) unless a category
says otherwise. To extend a language, add to its list; no code changes are needed.
"""

from __future__ import annotations

import re

Lexicon = dict[str, tuple[str, ...]]

# Doubt about the result, in the agent's own words.
HEDGE: Lexicon = {
    "en": (
        r"\bshould(?:n't)? (?:now |also |all |hopefully |definitely |probably )?(?:work|pass|fix|"
        r"resolve|clear|stop|do it|do the trick|help|handle|cover|take care|address|prevent|"
        r"succeed|run|load|show|appear|behave|sit|be (?:good|fine|ok|okay|working|fixed|resolved|"
        r"gone|correct|better|much better|faster|stable|healthy|running|deployed|live|up|able|"
        r"enough|all set|complete|done)|now be|be back)",
        r"\bshould be good to go\b",
        r"\bthat should\b",
        r"\bi think\b",
        r"\bi believe\b",
        r"\bprobably\b",
        r"\bi expect\b",
        r"\bhopefully\b",
        r"\bnot (?:100% |entirely |completely )?sure\b",
        r"\bfairly confident\b",
        r"\bi'?m confident\b",
        r"\bseems? to (?:work|be)\b",
        r"\bappears? to (?:work|be)\b",
        r"\bmay (?:need|still|not)\b",
        r"\bmight (?:need|still|not|be)\b",
        r"\bin theory\b",
        r"\bgive it a (?:try|go|spin)\b",
        r"\btry (?:it|again|refreshing|reloading|accessing|running|"
        r"restarting|relaunching)\b",
        r"\blet me know if (?:you )?(?:still )?(?:see|get|run into|hit|"
        r"encounter|notice|have any)\b",
        r"\blet me know if (?:it|that|this|you still|the)\b",
        r"\bfor most cases\b",
        r"\b(?:haven'?t|have not|didn'?t|did not|couldn'?t|could not|wasn'?t able to|was unable to|"
        r"not yet|never) (?:\w+ ){0,2}(?:run|ran|test|tested|verify|verified|check|checked|execute|"
        r"executed|confirm|confirmed|build|built)\b",
        r"\buntested\b",
        r"\bwithout (?:testing|running|verifying|checking)\b",
        r"\bnot (?:been )?"
        r"(?:tested|verified|checked|run)\b",
        r"\bci (?:should|will) (?:tell|catch|show|confirm)\b",
        r"\bi assume\b",
        r"\bassuming\b",
        r"\bpresumably\b",
        r"\blooks? good (?:in my|to me|on my)\b",
        r"\bif (?:it'?s|it is) still (?:happening|broken|failing)\b",
        r"\bpotential fix\b",
        r"\bwill be (?:named|fixed|resolved|working) correctly\b",
        r"\bought to (?:work|fix)\b",
        r"\blikely (?:fixed|resolved|works)\b",
        r"\bfingers crossed\b",
    ),
    "de": (
        r"\bsollte(?:n)? (?:\w+ ){0,3}(?:funktionieren|laufen|gehen|passen|durchlaufen|klappen|"
        r"behoben|erledigt|stimmen|grün)",
        r"\bich gehe davon aus\b",
        r"\bnicht (?:\w+ )?"
        r"(?:geprüft|getestet|verifiziert|ausgeführt|laufen lassen)\b",
        r"\bwahrscheinlich\b",
        r"\bvermutlich\b",
        r"\bich glaube\b",
        r"\bich denke\b",
        r"\bhoffentlich\b",
        r"\bmüsste\b",
        r"\bdürfte\b",
        r"\beigentlich\b",
    ),
    "es": (
        r"\bdebería(?:n)? (?:\w+ ){0,2}(?:funcionar|estar|arreglar|pasar|resolver|ir)",
        r"\bcreo que\b",
        r"\bprobablemente\b",
        r"\bsupongo\b",
        r"\bno (?:he|pude|hemos) "
        r"(?:\w+ )?(?:probado|ejecutado|verificado|comprobado|podido)\b",
        r"\bsin probar\b",
        r"\ben teoría\b",
        r"\bespero que\b",
        r"\bquizás?\b",
        r"\bparece que funciona\b",
    ),
    "fr": (
        r"\bdevrai(?:t|ent) (?:\w+ ){0,2}(?:marcher|fonctionner|être|passer|régler|corriger)",
        r"\bnormalement\b",
        r"\bje pense\b",
        r"\bje crois\b",
        r"\bprobablement\b",
        r"\bje n'?ai pas (?:pu )?(?:\w+ )?(?:lancé|testé|vérifié|lancer|tester|vérifier|exécuté)\b",
        r"\bsans (?:tester|vérifier)\b",
        r"\ben principe\b",
        r"\bj'espère\b",
        r"\bsans doute\b",
    ),
}

# Verification claimed; it counts against a completion only when nothing shows it.
ASSERTED: Lexicon = {
    "en": (
        r"\ball (?:the )?(?:\w+ )?tests? (?:now )?(?:pass|passed|are passing|are green|green|have passed)",
        r"\btests? (?:are |were )?(?:written and )?(?:passing|pass|green)\b",
        r"\btested (?:it|and|locally|"
        r"successfully|thoroughly|manually|end-to-end)\b",
        r"\b(?:verified|confirmed)\b",
        r"\bworks? (?:perfectly|correctly|great|fine|as expected|now|end-to-end)\b",
        r"\beverything (?:works|is working|passes|is green)\b",
        r"\b(?:working|runs?) (?:correctly|"
        r"properly|perfectly)\b",
        r"\bthoroughly tested\b",
        r"\bpasses (?:ruff|mypy|lint|the tests|all)\b",
        r"\bsuccessfully (?:tested|verified)\b",
        r"\bis now working\b",
        r"\bnow works\b",
        r"\ball good\b",
    ),
    "de": (
        r"\bgetestet\b",
        r"\bfunktioniert\b",
        r"\balle tests (?:sind |laufen )?(?:grün|bestanden|durch)",
        r"\bgeprüft\b",
        r"\bverifiziert\b",
    ),
    "es": (
        r"\blo probé\b",
        r"\bprobado\b",
        r"\bfunciona (?:perfectamente|correctamente|bien)\b",
        r"\btodas las pruebas pasan\b",
        r"\bverificado\b",
        r"\bcomprobado\b",
    ),
    "fr": (
        r"\btesté\b",
        r"\bfonctionne (?:parfaitement|correctement|bien)\b",
        r"\btous les tests passent\b",
        r"\bvérifié\b",
    ),
}

# Claims that the work (or a part of it) is finished.
DONE: Lexicon = {
    "en": (
        r"[:;]\s+(?:wrote|added|fixed|implemented|created|updated|covered|removed|replaced)\b",
        r"\A\W*(?:[\w/\[\]-]+:?\s+)?(?!(?:looked|checked|investigated|reviewed|analy[sz]ed|noticed|based|tried|wondered|needed|seed|need|feed|speed|used|asked|started|stopped|failed|blocked)\b)[a-z]+ed\b",
        r"^(?:done|finished|complete|completed|fixed|all set|all good|ready)\b",
        r"\b(?:is|are|now) "
        r"(?:done|complete|completed|finished|fixed|resolved|live|in|merged|deployed)\b",
        r"\btask complete\b",
        r"\bi'?ve (?:successfully )?(?:\w+ )?(?:fixed|implemented|added|"
        r"created|updated|completed|finished|made|modified|moved|written|wrote|changed|resolved|"
        r"refactored|built|removed|replaced|set up|configured|migrated|committed|pushed|merged|"
        r"installed|deployed|released)\b",
        r"\bsuccessfully\b",
        r"\beverything(?:'s| is) "
        r"(?:ready|done|documented|in place)\b",
        r"\b(?:finished|completed?)\b(?! (?:so far|yet))",
        r"(?<!\bnot )\bdone\b(?! so far)",
        r"^\s*(?:[-*•]|\d+[.)])?\s*(?:\W{0,4})(?:\[?/[\w-]+\]?:?\s+)?(?:added|fixed|implemented|created|updated|ported|replaced|extracted|"
        r"cleaned up|upgraded|retrained|dropped|rolled (?:out|back)|released|parameteri[sz]ed|"
        r"migrated|refactored|wrote|built|removed|moved|renamed|raised|bumped|enabled|"
        r"disabled|hotfix applied|applied|merged|deployed|pushed|committed|opened|shipped|"
        r"converted|switched|rewrote|restored|reverted|tagged|published|organi[sz]ed|"
        r"rebuilt|resolved|documented|increased|reduced|changed|set up|configured)\b",
        r"\bpr (?:is up|created|opened)\b",
        r"\bready for (?:review|production|merge|/do-build)\b",
        r"✅|✔️|\[x\]",
    ),
    "de": (
        r"\b(?:fertiggestellt|erledigt|gepusht|committet|deployt|veröffentlicht)\b",
        r"\b(?:erledigt|fertig|abgeschlossen|behoben|ist durch|umgesetzt|implementiert|"
        r"hinzugefügt|aktualisiert|korrigiert)\b",
    ),
    "es": (
        r"\b(?:completad[oa]s?|implementad[oa]s?|subid[oa]s?|terminad[oa]s?|desplegad[oa]s?|actualizad[oa]s?|corregid[oa]s?|añadid[oa]s?)\b",
        r"^listo\b|\blisto\b|\b(?:corregí|terminé|implementé|añadí|agregué|arreglé|actualicé|"
        r"completé|hecho|terminado|corregido|arreglado|ya está)\b",
    ),
    "fr": (
        r"\b(?:terminé|c'est corrigé|corrigé|fini|implémenté|ajouté|mis à jour|c'est fait|"
        r"réglé|résolu)\b",
    ),
}

# Work still under way, or about to start.
ONGOING: Lexicon = {
    "en": (
        r"(?:^|[.!]\s+)now,? (?:\w+ing|run|on to|let's|for the)\b",
        r"\b(?:i'?ll|i will|let me(?! know)|let's|going to|about to|i'?m going to)\b",
        r"\b(?:now|next)[,:]? (?:i'?ll|i'?m|let me|i will|i need to|i have to)\b",
        r"(?:^|(?<=[.!]\s))\w+ing\b[^.\n]{0,60}\bnow\b",
        r"\b(?:i'm|i’m|i am|we're|we’re|we are|currently) \w+ing\b",
        r"\b\w+ing (?:(?:it|them|this|that|these|those|everything) )?now\b",
        r"(?:^|[.;:]\s+)(?:next|then)\b",
        r"\bnext (?:up|step|i'?ll)\b",
        r"\bmoving on\b",
        r"\bin progress\b",
        r"⏳|⬜",
        r"\bhalfway\b",
        r"\bstep \d+ (?:of|/) ?\d+\b",
        r"\b(?:task|phase|part) \d+ ?(?:of|/) ?\d+\b",
        r"\bstill (?:running|working|failing|need)\b",
        r"\bresuming\b",
        r"\bworking on\b",
        r"^(?:on it|starting|reading|scanning|looking|analy[sz]ing|investigating|checking|"
        r"running|writing|exploring|searching|continuing|building|waiting)\b",
        r"\bwill (?:report|post|follow up|update|do|change|adjust|get back)\b",
        r"\bafter that\b",
        r"\b(?:first|remaining|rest) (?:\w+ ){0,3}(?:come|comes|next|to do|left)\b",
        r"\bcome after\b",
        r"\bso far\b",
        r"\bre-?running\b",
        r"\bgoing through\b",
    ),
    "de": (
        r"\b(?:mir fehlt noch|es fehlt noch|ich kümmere mich|danach)\b",
        r"\bich (?:baue|stelle|schreibe|mache|lasse|prüfe|teste|ändere|passe|korrigiere|füge|starte|kümmere|sehe|schaue|behebe|migriere|aktualisiere|untersuche)\b",
        r"\b(?:ich mache weiter|als nächstes|jetzt (?:\w+ )?(?:ich|kümmere)|ich werde|"
        r"läuft gerade|in arbeit|weiter mit)\b",
    ),
    "es": (
        r"\b(?:me falta|queda pendiente|me encargo|después)\b",
        r"\b(?:añado|vuelvo a|corrijo|reviso|ejecuto|lanzo|pruebo|arreglo|agrego|actualizo|investigo|escribo|migro)\b",
        r"\b(?:voy a|ahora (?:\w+ )?(?:estoy|voy)|sigo con|continúo|a continuación|en curso|"
        r"estoy (?:\w+ando|\w+iendo))\b",
    ),
    "fr": (
        r"\bje passe\b",
        r"\bpuis (?:je|j')",
        r"\bje m'en occupe\b",
        r"\bil me reste\b",
        r"\breste à faire\b",
        r"\b(?:je |j')(?:relance|lance|ajoute|corrige|regarde|teste|modifie|mets|refais|réécris|vérifie|écris|migre|examine)\b",
        r"\b(?:je corrige|je reviens|je vais|ensuite|en cours|je continue|je m'occupe|"
        r"je passe à)\b",
    ),
}

# Asking the human without a question mark, or to approve a step.
ASK: Lexicon = {
    "en": (
        r"\b(?:without|until i (?:get|have)|before i get) your (?:ok|okay|go-ahead|approval|confirmation|sign-off|green light)\b",
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
    ),
    "de": (
        r"\b(?:ohne|vor) (?:dein|ihr|eure)\w* (?:ok|okay|freigabe|zustimmung|bestätigung|go)\b",
        r"\bsoll ich\b",
        r"\bbitte (?:bestätige|entscheide|sag)\b",
        r"\bgib mir bescheid\b",
    ),
    "es": (
        r"\b(?:sin|hasta tener) tu (?:ok|visto bueno|confirmación|aprobación|autorización)\b",
        r"\bdime (?:si|qué|cuál)\b",
        r"\bconfirma(?:me)?\b",
    ),
    "fr": (
        r"\b(?:sans|avant) (?:ton|votre) (?:accord|feu vert|confirmation|validation|ok)\b",
        r"\bdites-moi\b",
        r"\bconfirme[zr]?\b",
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
    "de": (r"\bsoll ich noch\b",),
    "es": (r"\bquieres que\b",),
    "fr": (r"\bsouhaitez-vous que je\b",),
}

# Something outside the agent's control that needs a person.
BLOCKER: Lexicon = {
    "en": (
        r"\blicen[cs]e\b",
        r"\bsign in\b",
        r"\bactivat\w+\b",
        r"\b(?:credentials?|api key|access token|token|secret|license key|password|ssh key|"
        r"permissions?|access|role|quota|billing|allowlist|firewall|sso|2fa|mfa|security key|"
        r"login|log in|auth(?:entication|orization)?|authenticated|unauthori[sz]ed|forbidden|"
        r"read-only|sandbox|runners?|registry|incident|outage|status page|no space left|"
        r"disk (?:is )?full|contradict\w*|reconcile|conflicting requirements|plan mode|"
        r"not (?:allowed|permitted)|denied|blocked|dns|zone|offline|down|503|502|"
        r"bad gateway|service unavailable|one-time password|otp|authenticator|agreement|"
        r"payment required|402|rate limit|pull rate limit|toomanyrequests|sudo|root|admin rights|"
        r"edit rights|write access|(?:secret|api|test-mode|license|access|deploy|signing|private) key)\b",
        r"\w_(?:key|token|secret|password)\b",
    ),
    "de": (r"\b(?:zugangsdaten|berechtigung|zugriff|passwort|kontingent|gesperrt)\b",),
    "es": (r"\b(?:credenciales|permisos?|acceso|contraseña|cuota|bloqueado)\b",),
    "fr": (r"\b(?:identifiants|permissions?|accès|mot de passe|quota|bloqué)\b",),
}

# The agent cannot go on by itself.
STUCK: Lexicon = {
    "en": (
        r"\b(?:needs?|requires?) you to\b",
        r"\b(?:i )?(?:can'?t|cannot|can not|couldn'?t|could not|unable to|am not able to|"
        r"won'?t be able to|have no way to)\b",
        r"\bi don'?t have (?:access|permission|the|a|"
        r"any|write)\b",
        r"\b(?:i )?have no access\b",
        r"\bno access\b",
        r"\bblocked (?:on|by)\b",
        r"\b(?:someone|somebody|a human|an admin|a repo admin|you|the account holder|an owner)\b[^.]{0,60}?\b(?:needs? to|has to|have to|must)\b",
        r"\bonly (?:the|an?|someone|somebody) [\w -]{0,40}\b(?:can|could|may)\b",
        r"\byourself\b",
        r"\bgive me (?:a|an|the|access|permission|write|your|those)\b",
        r"\bi don'?t have (?:those|these|that|an?)\b",
        r"\b(?:isn'?t|is not|aren'?t|are not) (?:set|configured|available)\b[^.]{0,40}\b(?:environment|\.env|secrets?|anywhere)\b",
        r"\bno value anywhere\b",
        r"\bneeds? (?:a |an |the )?(?:human|admin|someone|you|your)\b",
        r"\b(?:need|needs|require"
        r"|requires) [\w\s`-]{0,40}(?:credentials|token|key|secret|role|access|permission|"
        r"approval|top-up|quota)\b",
        r"\bwaiting on\b",
        r"\buntil (?:it|they|the|someone|you)\b",
        r"\bnot a technical call\b",
        r"\bcan'?t (?:proceed|continue|finish|install|push|run|"
        r"reach|connect|access|produce|complete|deploy)\b",
        r"\bstopped (?:at|before|here)\b",
        r"^blocked\b",
        r"\bwithout (?:\w+ ){0,3}(?:credentials|access|token|key|approval)\b",
    ),
    "de": (
        r"\bich komme nicht an\b",
        r"\bich habe keine (?:rechte|berechtigung|zugangsdaten)\b",
        r"\bjemand (?:muss|mit)\b",
        r"\bkann (?:ich )?nicht\b",
        r"\bkein(?:en)? zugriff\b",
    ),
    "es": (
        r"\bno tengo (?:acceso|permisos?|credenciales)\b",
        r"\balguien (?:con|tiene que|debe)\b",
        r"\bnecesito que\b",
        r"\bse ha parado\b",
        r"\bno puedo\b",
        r"\bsin acceso\b",
    ),
    "fr": (
        r"\bje n'ai pas (?:les droits|le droit|accès)\b",
        r"\bquelqu'un (?:doit|avec|qui)\b",
        r"\bil faut que quelqu'un\b",
        r"\brefuse\b",
        r"\bje ne peux pas\b",
        r"\bimpossible de\b",
        r"\bpas (?:d'|l')accès\b",
    ),
}

# The agent run itself broke (read on the opening of the raw text, code included).
ERROR_OPENING: Lexicon = {
    "any": (
        r"^(?:[\w.]+\.)?\w*(?:error|exception)\b:",
        r"^(?:\W{0,3})(?:error|fatal|panic|exception|failed|failure|fehler|erreur|échec)(?![\w-])",
        r"^\[[\w-]+\]\s*(?:fatal|error|crash|killed|panic)\b",
        r"^(?:\W{0,3})(?:api error|api request failed|request timed out|request failed|"
        r"stream error|an unexpected error|unexpected error|internal server error|"
        r"invalid api key|prompt is too long|context (?:window|length)|"
        r"max(?:imum)?[_ ](?:turns|tokens|output)|rate limit(?:ed)?|overloaded|"
        r"connection (?:reset|refused|error)|network error|segmentation fault|killed)\b",
        r"^traceback \(most recent call last\)",
        r"^\s*at \S+ \(",
        r"^(?:\W{0,3})agent (?:process )?(?:exited|crashed|terminated|died)",
        r"^\[(?:harness|system|error)\]",
        r"^(?:\W{0,3})(?:\*\*)?claude encountered an error",
        r"^(?:\W{0,3})(?:a potential loop was detected|the workflow .* encountered an error)",
        r"^\W{0,3}build failed\b",
    ),
}

# Errors anywhere that mean the run itself broke, not the user's code.
ERROR_ANYWHERE: Lexicon = {
    "any": (
        r"\bgiving up after \d+ (?:retries|attempts)\b",
        r"\b(?:shell|bash|edit|file|terminal|command) tool (?:has )?(?:stopped|crashed|failed|keeps failing|times? out|is not responding)\b",
        r"\bstopping without having\b",
        r"\btool [`'\"]?\w+[`'\"]? crashed\b",
        r"\bsandbox process terminated\b",
        r"\bsignal 9\b",
        r"\boomkilled\b",
        r"\bexited unexpectedly\b",
        r"\bno (?:final|further) (?:message|output)\b",
        r"\bsession ended\b",
        r"\bexceeded the \d+ output token\b",
        r"\bfailed to (?:start|parse tool call)\b",
        r"\b(?:edit|file-view|view) tool (?:returned|times out|failed)\b",
        r"\bencountered an error\b",
        r"\bfailed to create any\b",
        r"\bplease run /login\b",
        r"\bmcp server\b.*\bfailed\b",
        r"\bmodel_max_prompt_tokens_exceeded\b",
        r"\bwasn'?t able to make the change\b",
        r"\b(?:potential )?loop was detected\b",
        r"\brequest has been halted\b",
        r"\bexited with (?:signal|exit code|code) \w+",
        r"\bsig(?:segv|kill|abrt)\b",
        r"\bbefore (?:emitting|producing|writing) (?:a|any) final\b",
        r"<tool_call>|\bto=functions\.\w+",
        r"^\{\s*\"(?:tool|name)\": ?\"\w+\", ?\"(?:args|arguments|input|parameters)\"",
        r"^<<<<<<< search\s*$",
        r"\btool_use_error\b",
        r"\bexceeds? the (?:context window|maximum context|context limit)\b",
        r"\bhit a token limit\b",
        r"\bmaximum context length\b",
        r"\bkeine abschließende nachricht\b",
        r"\bzeitlimit\w* (?:von|erreicht)\b",
        r"<function_calls>|<invoke name=",
    ),
}

# Function words an unfinished sentence ends on (truncated output).
DANGLING = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "for",
        "with",
        "that",
        "this",
        "is",
        "are",
        "was",
        "in",
        "on",
        "at",
        "by",
        "from",
        "as",
        "it",
        "its",
        "my",
        "our",
        "your",
        "their",
        "so",
        "but",
        "if",
        "then",
        "than",
        "which",
        "who",
        "when",
        "where",
        "while",
        "because",
        "into",
        "onto",
        "about",
        "der",
        "die",
        "das",
        "und",
        "oder",
        "mit",
        "für",
        "zu",
        "ist",
        "ein",
        "eine",
        "den",
        "dem",
        "el",
        "la",
        "los",
        "las",
        "y",
        "o",
        "de",
        "que",
        "con",
        "para",
        "por",
        "en",
        "un",
        "una",
        "le",
        "les",
        "et",
        "ou",
        "du",
        "des",
        "pour",
        "avec",
        "est",
    ]
)


def compile_lexicon(lexicon: Lexicon) -> re.Pattern[str]:
    """One alternation over every language's patterns, matched against LOWERCASED text.

    Matching lowercased text without IGNORECASE, and hoisting the leading word boundary
    shared by most patterns, makes each search several times faster.
    """
    bounded: list[str] = []
    other: list[str] = []
    for patterns in lexicon.values():
        for p in patterns:
            (bounded if p.startswith(r"\b") else other).append(p)
    parts = [rf"\b(?:{'|'.join(f'(?:{p[2:]})' for p in bounded)})"] if bounded else []
    parts += [f"(?:{p})" for p in other]
    return re.compile("|".join(parts), re.M)
