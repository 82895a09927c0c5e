"""Words about trouble: blockers outside the agent's control, and broken runs."""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

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
        r"paid plan|paid tier|free trial|trial account|payment method|credit card|"
        r"edit rights|write access|branch protection|protected branch|required reviews?|required (?:status )?checks?|(?:secret|api|test-mode|license|access|deploy|signing|private) key)\b",
        r"\w_(?:key|token|secret|password)\b",
        r"\bcertificates? (?:has |have )?expired\b",
    ),
    "de": (
        r"\b(?:zugangsdaten|berechtigung|zugriff|passwort|kontingent|gesperrt|nicht erreichbar|"
        r"ausgefallen|wartung|zertifikat\w*)\b",
        r"\bwidersprüchlich\w*|\bwidersprechen\b",
    ),
    "es": (
        r"\b(?:credenciales|permisos?|acceso|contraseña|cuota|bloqueado|certificado)\b",
        r"\bse contradicen\b|\bcontradictori[oa]s\b|\bincompatibles\b",
    ),
    "fr": (
        r"\b(?:identifiants|permissions?|accès|mot de passe|quota|bloqué|certificat)\b",
        r"\bcontradictoires\b|\bse contredisent\b|\bincompatibles\b",
    ),
}

# The agent's next step put after what someone else has to do ("I'll resume once the
# token is set", "I'll apply the change once the file is writable", "Seguiré cuando me den
# permiso"): read as the agent stuck (`STUCK`) and as a step resumed after something it
# waits for (`ending.resumes_after`). More languages in `trouble_world.RESUMES_ONCE_WORLD`.
RESUMES_ONCE: Lexicon = {
    "en": (
        r"\bi'?ll (?:resume|continue|rerun|re-run|retry|apply|pick (?:[\w-]+ ){0,3}(?:back )?up|proceed|finish)\b"
        r"[^.!?\n]{0,80}\b(?:once|as soon as)\b",
    ),
    "es": (
        r"\b(?:seguiré|continuaré|sigo|continúo) (?:cuando|en cuanto|apenas)\b|\ben cuanto lo hagas\b",
        # "En cuanto el deployment esté aplicado sigo con la verificación"
        r"\ben cuanto [^.\n]{1,80}?\b(?:esté|estén|tenga|tengas|haya|hayas)\b[^.\n]{0,60}?,? "
        r"(?:sigo|continúo|seguiré|continuaré|retomo)\b",
    ),
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
        r"approval|top-up|quota|billing)\b",
        # a person named after the step: "that has to be done by the account holder"
        r"\b(?:has|have|needs?) to be (?:\w+ ){1,5}by (?:the |an? |your )?(?:[\w-]+ ){0,2}"
        r"(?:account holder|account owner|owner|admin(?:istrator)?|someone)\b",
        r"\bwaiting on\b",
        # "What's needed (by someone with DNS edit rights)", "the token here only has Zone:Read"
        r"\b(?:by|for|from) someone with (?:[\w-]+ ){0,3}(?:rights|access|permissions?|role)\b",
        r"\bonly (?:has|have|grants?) [^.\n]{0,30}\bread\b",
        r"\bcan'?t (?:merge|approve) (?:[\w#-]+ ){0,3}(?:myself|on my own)\b",
        r"\bwon'?t let me\b",
        *RESUMES_ONCE["en"],
        r"\buntil (?:it|they|the|someone|you)\b",
        r"\bnot a technical call\b",
        r"\bcan'?t (?:proceed|continue|finish|install|push|run|"
        r"reach|connect|access|produce|complete|deploy)\b",
        r"\bstopped (?:at|before|here)\b",
        r"^blocked\b",
        r"\bwithout (?:\w+ ){0,3}(?:credentials|access|token|key|approval)\b",
        # an outside service the work waits for: "nothing I can change on our side";
        # "once the registry recovers"
        r"\bnothing (?:more |else )?(?:i|we) can (?:do|change|fix)\b",
        # a sign-in only the human can do: "needs to be re-authorized through your SSO"
        r"\bneeds? to be re-?authori[sz]ed\b",
        r"\b(?:sign-?in|log-?in|pairing|approval) (?:on|with|through|from|in) your (?:own )?"
        r"(?:account|identity provider|browser|phone|device)\b",
        r"\bonce (?:the|it|they) (?:[\w-]+ ){0,2}(?:recovers?|is back|are back|comes? back|"
        r"is restored|are restored)\b",
    ),
    "de": (
        r"\bich komme nicht an\b",
        r"\bich habe keine (?:rechte|berechtigung|zugangsdaten)\b",
        r"\bjemand (?:muss|mit)\b",
        r"\bkann (?:ich )?nicht\b",
        r"\bkein(?:en)? zugriff\b",
        # "kann ihn aber erst hochladen, wenn der Server wieder da ist", "sobald jemand …"
        r"\bkann [^.\n]{0,40}\berst\b[^.\n]{0,30}\bwenn\b",
        r"\bsobald jemand\b",
        # "Neue Client-Credentials kann nur der Account-Inhaber erzeugen"
        r"\bkann nur (?:der|die|das|ein|eine|ihr|dein|euer) [\w-]+",
        r"\blässt sich (?:hier )?nicht (?:testen|prüfen|ausführen|deployen)\b",
    ),
    "es": (
        r"\bno tengo (?:acceso|permisos?|credenciales)\b",
        r"\balguien (?:con|tiene que|debe)\b",
        r"\bnecesito que\b",
        *RESUMES_ONCE["es"],
        r"\bse ha parado\b",
        r"\bno puedo\b",
        r"\bsin acceso\b",
        # a step in the user's own panel: "hay que agregar tres registros DNS en el panel"
        r"\bhay que (?:agregar|añadir|verificar|configurar|habilitar|activar) [^.\n]{0,60}"
        r"\ben (?:el|tu|su) (?:panel|dashboard|consola|cuenta)\b",
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
        # the same word opening the message in the other languages of `world.py`
        r"^(?:\W{0,3})(?:ошибка|помилка|erro|errore|lỗi|kesalahan|hata|błąd)(?![\w-])",
        r"^(?:\W{0,3})(?:错误|出错|エラー|오류)",
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
        r"\ban internal error (?:occurred|in this step)\b",
        r"\bfailed to create any\b",
        r"\bplease run /login\b",
        r"\bmcp server\b.*\bfailed\b",
        r"\bmodel_max_prompt_tokens_exceeded\b",
        r"\bwasn'?t able to make the change\b",
        r"\b(?:potential )?loop was detected\b",
        r"\brequest has been halted\b",
        r"\bexited with (?:signal|exit code|code) \w+",
        r"\bsig(?:segv|kill|abrt)\b",
        # node's own crash dump (the agent's CLI out of memory): "<--- Last few GCs --->"
        r"<--- (?:last few gcs|js stacktrace) --->",
        r"\bbefore (?:emitting|producing|writing) (?:a|any) final\b",
        r"<tool_call>|\bto=functions\.\w+",
        r"^\{\s*\"(?:tool|name)\": ?\"\w+\", ?\"(?:args|arguments|input|parameters)\"",
        r"\btool_use_error\b",
        r"\bexceeds? the (?:context window|maximum context|context limit)\b",
        r"\bhit a token limit\b",
        r"\bmaximum context length\b",
        r"\bkeine abschließende nachricht\b",
        r"\bzeitlimit\w* (?:von|erreicht)\b",
        r"<function_calls>|<invoke name=",
        # the model call of a harness built on LiteLLM (Aider) failing, printed on its own
        # line, quoted ("> ") in Aider's chat history
        r"^(?:> ?)?litellm\.\w*(?:error|exception)\b:",
    ),
}

# Function words an unfinished sentence ends on (truncated output).
# Characters a Chinese or Japanese sentence cannot end on (a coverb or conjunction that
# wants its object: "…合并前先按", "…方法中的 … 把"; a particle that wants its verb: "…を")
# 是 and 在 too: "原因是", "问题可能出在" want what follows
DANGLING_CJK = frozenset("把将被对向从按给和与或及并而但且于让使是在をにがでへは")
# Chinese conjunctions that open a clause and want it: "…放在限流之后，这样" (so that …)
DANGLING_CJK_WORDS = (
    "这样",
    "因为",
    "所以",
    "但是",
    "然后",
    "如果",
    "以便",
    "从而",
    "并且",
    "而且",
    "由于",
    "为了",
    # Korean connective endings that want the clause after them: "…요청하도록" (so that …)
    "도록",
    "하고",
    "해서",
    "하면",
    "지만",
    "는데",
    "면서",
    "려고",
)
# Two-letter words and names a sentence may end on ("… and CI", "… for it"): any other
# two letters after a word that wants more are a word cut off ("… and re").
TWO_LETTER_WORDS = frozenset((
    "it", "up", "in", "on", "me", "us", "so", "go", "do", "to", "ok", "no", "is", "be", "we",
    "he", "an", "or", "of", "if", "my", "at", "as", "by", "am", "id", "db", "js", "ts", "ui",
    "ci", "qa", "ux", "os", "io", "pr", "vm", "ml", "ai", "uk", "eu", "hr", "qe", "sa",
))  # fmt: skip
DANGLING = frozenset(
    [
        "the",
        "a",
        "we",
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
        "without",
        "across",
        "between",
        "toward",
        "towards",
        "via",
        "against",
        "within",
        "whether",
        "unless",
        "although",
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
        # a subordinate clause or an article opened and never closed ("…, was darauf
        # hindeutet, dass"); not the particles of separable verbs, which end sentences
        "dass",
        "weil",
        "wenn",
        "ob",
        "im",
        "einen",
        "einem",
        "eines",
        "el",
        "la",
        "los",
        "las",
        "y",
        "o",
        "de",
        "que",
        "del",
        "al",
        "porque",
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
        "dans",
        "sur",
        "une",
        "est",
        # Russian, Ukrainian and Polish prepositions and conjunctions ("…додам обмеження на")
        *("и", "в", "на", "с", "со", "к", "по", "для", "от", "из", "что", "чтобы", "но", "или"),
        *("при", "через", "об", "до", "і", "й", "та", "у", "з", "із", "від", "що", "щоб"),
        *("але", "або", "dla", "oraz", "lub", "przez", "że", "żeby"),
        # Portuguese and Italian articles and prepositions
        *("os", "do", "da", "dos", "das", "no", "na", "em", "com", "um", "uma", "il", "della"),
        *("gli", "di", "per", "che"),
        # Hinglish conjunctions ("… add kar raha hoon taaki")
        *("taaki", "kyunki", "jisme", "lekin", "aur"),
        # Indonesian and Malay, Vietnamese, Arabic, Hindi (the words read whole: no vowel
        # sign), Dutch, Swedish, Danish and Norwegian: "… menambahkan alasan untuk"
        *("untuk", "dan", "yang", "dengan", "dari", "ke", "agar", "supaya", "karena", "bahwa"),
        *("đang", "để", "và", "của", "cho", "với", "các", "những", "khi", "nếu", "vì", "từ"),
        *("من", "في", "إلى", "على", "عن", "مع", "أن"),
        *("जब", "और", "ताकि", "क्योंकि"),
        *("het", "een", "en", "van", "voor", "met", "om", "dat", "och", "att", "för", "og"),
    ]
)
