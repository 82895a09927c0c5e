"""Words about results: doubt (hedges), verification claimed, and claims of being done."""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

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
        # "we'll know tomorrow morning whether it works": the result is still to come
        r"\b(?:we|you|i)'?ll (?:know|see|find out) (?:\w+ ){0,3}(?:whether|if) (?:it|that|this) "
        r"(?:works|worked|holds)\b",
        # the agent's own check left out; not code described ("accessed X without checking
        # that X was non-null", "without checking for file existence")
        r"\bwithout (?:testing|running|verifying|checking)\b(?! (?:that|whether|if|for)\b)",
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
        r"\bsollte(?:n)? (?:\w+ ){0,6}(?:funktionieren|laufen|gehen|passen|durchlaufen|klappen|"
        r"behoben|erledigt|stimmen|grün|weg sein|verschwinden|verschwunden)",
        # the verb comes last in German: "Das sollte das Problem mit den ... beheben"
        r"\bsollte(?:n)? (?:[\w-]+ ){0,12}(?:lösen|beheben)\b",
        r"\bich gehe davon aus\b",
        # "Jetzt sollten keine leeren E-Mails mehr durchgehen": now ... should, any verb
        r"\bjetzt sollte(?:n)?\b",
        r"\bsollte(?:n)? (?:jetzt|nun)\b",
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
        r"\bdebería(?:n)? (?:\w+ ){0,2}(?:funcionar|estar|arreglar|pasar|resolver|ir|cuadrar|"
        r"coincidir|solucionar)",
        r"\bcreo que\b",
        r"\bahora (?:\w+ ){0,3}deber(?:ía|ían)\b",  # "now ... should ...": a prediction
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
        r"\bdevrai(?:t|ent) (?:\w+ ){0,2}(?:marcher|fonctionner|être|passer|régler|corriger|"
        r"résoudre)",
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
        # not "as confirmed" (as the human confirmed: the approval, not a check)
        r"\b(?<!as )(?:verified|confirmed)\b",
        r"\bworks? (?:perfectly|correctly|great|fine|as expected|now|end-to-end)\b",
        r"\beverything(?: is|'s) (?:working|passing|green)\b|\beverything (?:works|passes)\b",
        r"\b(?:working|runs?) (?:correctly|"
        r"properly|perfectly)\b",
        r"\bthoroughly tested\b",
        r"\bpasses (?:ruff|mypy|lint|the tests|all)\b",
        r"\bsuccessfully (?:tested|verified)\b",
        r"\bis now working\b",
        r"\bnow works\b",
        # "Build passes now.", "Everything looks fine."
        r"\bpasses now\b",
        r"\beverything looks (?:fine|good|correct)\b",
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
        # "the fix is in." but not a place named ("the bug is in the parser")
        r"\b(?:is|are|now) "
        r"(?:done|complete|completed|finished|fixed|resolved|live|in(?= *(?:[.!;,)]|$))|in place|"
        r"merged|deployed)\b",
        r"\btask complete\b",
        # "The suite is green now", "CI is green again"
        r"\b(?:suite|ci|build|pipeline|tests) (?:is|are) (?:all )?green (?:now|again)\b",
        r"\bi'?ve (?:successfully )?(?:\w+ )?(?:fixed|implemented|added|"
        r"created|updated|completed|finished|made|modified|moved|written|wrote|changed|resolved|"
        r"refactored|built|removed|replaced|set up|configured|migrated|committed|pushed|merged|"
        r"installed|deployed|released)\b",
        r"\bsuccessfully\b",
        r"\beverything(?:'s| is) "
        r"(?:ready|done|documented|in place)\b",
        r"\b(?:finished|completed?)\b(?! (?:so far|yet))",
        r"(?<!\bnot )\bdone\b(?! so far)",
        r"^\s*(?!\s)(?:(?:[-*•]|\d+[.)])\s*(?!\s))?(?:\W{0,4})(?:\[?/[\w-]+\]?:?\s+)?(?:added|fixed|implemented|created|updated|ported|replaced|extracted|"
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
        r"hinzugefügt|aktualisiert|korrigiert|repariert|gefixt)\b",
    ),
    "es": (
        r"\b(?:completad[oa]s?|implementad[oa]s?|subid[oa]s?|terminad[oa]s?|desplegad[oa]s?|actualizad[oa]s?|corregid[oa]s?|añadid[oa]s?)\b",
        r"^listo\b|\blisto\b|\b(?:corregí|terminé|implementé|añadí|agregué|arreglé|actualicé|"
        r"completé|hecho|terminado|corregido|arreglado|ya está)\b",
    ),
    "fr": (
        r"\b(?:terminé|c'est corrigé|corrigé|fini|implémenté|ajouté|mis à jour|c'est fait|"
        r"réglé|résolu)\b",
        # the same participles agreeing with a feminine or plural subject ("est terminée");
        # not "implémentées" or "ajoutées", which a review says of what it found in place
        r"\b(?:terminé|corrigé|fini|réglé|résolu)(?:e|s|es)\b",
    ),
}
