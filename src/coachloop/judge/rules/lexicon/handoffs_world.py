"""A request to the human, then the agent's own next step, in other languages.

What `sure.waits_on_request` reads in English ("Paste the new key into `.env` and I'll
rerun it"): the human is told to do something, and the agent says what it does once that
is done, in one sentence. The work waits on the human, so the stop reaches them. Merged
into `cues.ASK_SURE` in `lexicon/__init__.py` (keys "<language>-then", beside that
language's own plain requests).

Where a language's imperative can also be the agent's own first person or a third person
("lance", "crea", "copia"), the imperative must open its sentence, where agents' own
narration puts its "I". The agent's step is a first-person
verb from a short list or in the future tense, so usage notes ("copy `.env.example` and
you're done") are not read as requests. Written from the languages, not from any
benchmark's texts.
"""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

# a sentence's or a line's first word (the word boundary first, so the words of a text
# pick the patterns to try, as for the other patterns)
_OPENS = r"\b(?:(?<!.)|(?<=[.!:;] ))"

REQUEST_THEN_WORLD: Lexicon = {
    # "Вставьте его в `.env`, и я перезапущу расчёт" (insert it …, and I'll restart …)
    "ru-then": (
        r"\b(?:вставьте|вставь|добавьте|добавь|укажите|укажи|пропишите|пропиши|обновите|обнови|"
        r"замените|замени|пришлите|пришли|сгенерируйте|выдайте|выдай|дайте|дай|включите|включи|"
        r"положите|положи|создайте|создай|установите|перезапустите|запустите|подключите|"
        r"подключи|авторизуйтесь|войдите)\b[^.!?\n]{0,80}?,? (?:и|тогда|после этого|потом) "
        r"я \w+[ую]\b",
    ),
    "uk-then": (
        r"\b(?:вставте|встав|додайте|додай|вкажіть|вкажи|пропишіть|оновіть|онови|замініть|"
        r"заміни|надішліть|надішли|згенеруйте|надайте|надай|дайте|дай|увімкніть|увімкни|"
        r"покладіть|створіть|створи|встановіть|перезапустіть|запустіть|запусти|підключіть|"
        r"підключи|авторизуйтеся|увійдіть)\b[^.!?\n]{0,80}?,? (?:і|й|тоді|після цього|потім) "
        r"я \w+[ую]\b",
    ),
    # "Mets la nouvelle clé dans `.env` et je relance la synchro."
    "fr-then": (
        _OPENS + r"(?:mets|mettez|ajoute|ajoutez|colle|collez|renseigne|renseignez|donne-moi|"
        r"donnez-moi|envoie-moi|envoyez-moi|génère|générez|active|activez|installe|installez|"
        r"relance|relancez|branche|branchez|connecte-toi|connectez-vous|crée|créez|remplace|"
        r"remplacez|indique-moi|indiquez-moi|confirme|confirmez|valide|validez|lance|lancez)\b"
        r"[^.!?\n]{0,80}?,? (?:et|puis) je (?:relance|lance|reprends|continue|termine|vérifie|"
        r"applique|déploie|pousse|teste|finis|m'en occupe|\w+rai)\b",
    ),
    # "Trag den neuen Key in `.env` ein, dann starte ich den Sync neu."
    "de-then": (
        _OPENS + r"(?:trag|füg|kopier|setz|gib|schick|leg|hinterleg|aktivier|installier|"
        r"erstell|bestätig|generier|(?:tragen|fügen|kopieren|setzen|geben|schicken|legen|"
        r"hinterlegen|aktivieren|installieren|erstellen|bestätigen|generieren|starten|melden) "
        r"sie)\b[^.!?\n]{0,80}?,? (?:dann (?:\w+e|kann|mach) ich|und ich (?:\w+e|kann|mach))\b",
    ),
    # "Metti la nuova chiave nel `.env` e rilancio la sincronizzazione."
    "it-then": (
        _OPENS + r"(?:metti|mettete|aggiungi|aggiungete|incolla|incollate|copia|genera|attiva|"
        r"installa|riavvia|collega|crea|conferma|dammi|mandami|inserisci|inserite|imposta)\b"
        r"[^.!?\n]{0,80}?,? e (?:io )?(?:lo |la |li |le |ne )?(?:riparto|rilancio|riprovo|"
        r"proseguo|continuo|procedo|applico|verifico|controllo|lancio|eseguo|pubblico|finisco|"
        r"completo|riavvio|\w+erò|\w+irò)\b",
    ),
    # "Coloque a nova chave no `.env` e eu rodo a sincronização de novo."
    "pt-then": (
        _OPENS + r"(?:coloque|coloca|adicione|adiciona|cole|copie|gere|ative|instale|rode|"
        r"execute|reinicie|conecte|crie|confirme|me (?:passe|passa|mande|manda|envie|diga|diz)|"
        r"mande|envie|atualize|insira|defina|configure|faça login)\b[^.!?\n]{0,80}?,? e "
        r"(?:eu )?(?:já )?(?:rodo|executo|reinicio|continuo|sigo|retomo|aplico|testo|verifico|"
        r"confiro|subo|publico|faço|termino|tento|\w+arei|\w+erei|\w+irei)\b",
    ),
    # "Pon la nueva en `.env` y vuelvo a lanzar la sincronización."
    "es-then": (
        _OPENS + r"(?:pon|ponga|añade|añada|agrega|agregue|pega|pegue|copia|genera|activa|"
        r"instala|reinicia|conecta|crea|confirma|dame|pásame|indícame|sube|actualiza|mete|"
        r"configura|inicia sesión)\b[^.!?\n]{0,80}?,? y (?:yo )?(?:lo |la |los |las |te )?"
        r"(?:vuelvo|sigo|continúo|relanzo|reintento|reviso|pruebo|lanzo|ejecuto|aplico|"
        r"despliego|termino|compruebo|reinicio|retomo|corro|\w+aré|\w+eré|\w+iré)\b",
    ),
    # "Bạn chạy `firebase login --reauth` rồi báo tôi để tiếp tục." (… then tell me)
    "vi-then": (
        r"\brồi báo (?:lại )?(?:cho )?(?:tôi|mình|em)\b",
        r"\bbáo (?:lại )?(?:cho )?(?:tôi|mình|em) (?:để )?(?:tiếp tục|làm tiếp)\b",
    ),
}
