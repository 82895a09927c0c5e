"""Plain requests to the human in the other languages real agents write in.

The same kind of request as `cues.ASK_SURE`'s English ones: paste the output here, tell
me once it is done, which option do you prefer, I am waiting for your confirmation.
Such a request reaches the human whatever the scorer says (`sure.sure_deliver`), so
only requests that wait on the human belong here: not offers of more work ("let me know
if you want...") nor checks handed over ("you can now test"). Merged into
`cues.ASK_SURE` in `lexicon/__init__.py`. Scripts without word spaces (CJK) are matched
as plain substrings; the rest keep word boundaries. Written from the languages, not
from any benchmark's texts.
"""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

ASK_SURE_WORLD: Lexicon = {
    "de": (
        # the next step gated on the human's approval or choice: "sobald du den Plan freigibst, fange ich an"
        r"\bsobald (?:du|sie) (?:\w+ ){0,4}(?:freigibst|freigeben|bestätigst|bestätigen|entscheidest|entscheiden|auswählst|auswählen|okay gibst|ok gibst)\b",
        r"\bwenn (?:du|sie) einverstanden (?:bist|sind)\b",
        r"\b(?:schick|schicke|sende|kopier|kopiere|füg|füge)\b[^.\n]{0,30}?"
        r"\b(?:ausgabe|log|fehlermeldung|screenshot)",
        r"\b(?:sag|gib) mir bescheid, (?:wenn|sobald)\b",
        r"\bwelche (?:option|variante) (?:bevorzugst|möchtest|willst) du\b",
        r"\bich warte auf deine (?:bestätigung|freigabe|antwort|entscheidung)\b",
        r"\bsobald du (?:das|es) (?:erledigt|ausgeführt|gemacht) hast\b",
        # "Bitte ... ausführen, danach mache ich weiter": the next step waits on it
        r"\bbitte\b(?:[^.!?\n]|\.(?=\S)){0,160}?\b(?:danach|dann|anschließend) (?:\w+ )?ich\b",
        # "Bitte starte das Skript einmal selbst und bestätige die TAN" (yourself)
        r"\bbitte\b[^.\n]{0,60}?\bselbst\b",
        # "Bitte erstell einen neuen PAT und hinterleg ihn": please + the du imperative
        r"\bbitte (?:erstell|hinterleg|trag|füg|setz|gib|schick|leg|aktivier|installier|generier|"
        r"erneuer|melde dich|log dich)\w*\b",
        r"\bes sei denn,? (?:du|sie) (?:möchtest|möchten|willst|wollen) (?:lieber|es anders)\b",
    ),
    "es": (
        # the next step gated on the human's approval or choice: "en cuanto me des el visto bueno, empiezo"
        r"\b(?:en cuanto|cuando|una vez que|apenas|tan pronto como) (?:me )?(?:des|dé|confirmes|confirme|apruebes|apruebe|elijas|elija|valides|valide|decidas|decida)\b",
        r"\bsi (?:me )?(?:das|da) (?:el )?(?:visto bueno|ok)\b",
        r"\b(?:pega|comparte|envía|envia|pásame|pasame)\b[^.\n]{0,25}?"
        r"\b(?:salida|resultado|error|log)\b",
        r"\bavísame (?:cuando|una vez|en cuanto)\b",
        r"\bqué opción prefieres\b",
        r"\bespero tu (?:confirmación|respuesta|aprobación|decisión)\b",
        r"\bcuando lo hayas (?:hecho|ejecutado)\b",
        r"\bcuando (?:las|los|la|lo) tengas\b",  # "Cuando las tengas, ponlas en …"
        r"\bconfírm(?:ame|alo|amelo|ame que)\b",
        r"\ba menos que (?:prefieras|prefiera|quieras|quiera)\b",
        # rioplatense and formal forms: "decime si hago upsert", "Respondé con el número"
        r"\b(?:decime|decíme|dígame|dime) si\b",
        r"\b(?:respondé|responde|respondeme|contestá|contesta) con (?:el|un|la) (?:número|opción|letra)\b",
        # "Quedo atento a que me confirmes cómo quieres …" (I await your confirmation)
        r"\bquedo (?:atent[oa]|a la espera) (?:a|de) (?:que me|tu|su)\b",
    ),
    "fr": (
        # "Il faut que tu le réinitialises depuis la console" (you need to …)
        r"\bil faut que (?:tu|vous)\b",
        # the next step gated on the human's approval or choice: "je lance la phase 1 dès que tu valides"
        r"\b(?:dès que|une fois que|aussitôt que|quand|lorsque) (?:tu|vous) (?:m[\'’]\w+ |\w+ )?(?:valid|confirm|approuv|chois|décid|donn\w* (?:ton|votre) (?:accord|feu vert))\w*",
        r"\b(?:colle|collez|envoie|envoyez)\b[^.\n]{0,25}?\b(?:sortie|résultat|erreur|log)\b",
        r"\b(?:dis|dites|préviens|prévenez)-moi (?:quand|dès que|une fois|si)\b",
        r"\bj'ai besoin de (?:toi|vous)\b",
        r"\bquelle option (?:préfères-tu|préférez-vous)\b",
        r"\bj'attends (?:ta|votre) (?:confirmation|réponse|validation|décision)\b",
        r"\bune fois que (?:tu as|vous avez) (?:fait|lancé|exécuté)\b",
        r"\bsauf si (?:tu préfères|vous préférez)\b",
        # "Je te laisse regarder et me dire laquelle tu gardes"
        r"\bje (?:te|vous) laisse (?:\w+ et )?(?:me dire|choisir|décider|valider|trancher)\b",
        r"\b(?:me dire|dis-moi|dites-moi) (?:laquelle|lequel|lesquelles|lesquels)\b",
        # "il me faudrait la liste des codes TVA que vous utilisez": a request as a statement
        r"\bil me faudrait (?:la liste|les codes|les accès|l'accès|le mot de passe|la clé|vos|votre|"
        r"ton|ta|tes)\b",
    ),
    "zh": (
        r"(?:输出|结果|错误信息|报错|日志)[^。\n]{0,4}?(?:发|贴|粘贴)(?:给我|过来|到这里)",
        r"完成后(?:告诉|通知)我",
        # "你登录完说一声，我继续" (say so once you've logged in); "贴给我", "貼給我" (paste it to me)
        r"(?:你|您)\S{1,10}?(?:完|好)了?(?:说一声|告诉我|跟我说|通知我)",
        r"(?:贴|貼|粘贴|黏貼|发|發|传|傳)(?:给|給)我",
        r"(?:运行|执行)(?:完|后)(?:告诉|通知)我",
        r"等(?:待)?(?:你|您)(?:们)?的?(?:确认|回复|决定)",
        r"(?:你|您)(?:更)?(?:倾向|希望|想要)[^。\n]{0,4}?哪(?:个|种)",
        # "once you confirm / choose, I'll go on": the next step waits on the human
        r"(?:你|您)(?:确认|决定|选择|选定|选一个|选个|挑一个|告诉我)[^。\n]{0,12}?后?我(?:再|就|会|将)?(?:继续|开始|进行|实施|动手)",
        # the step named after the place it runs in: "你确认后我就在生产执行" (on production)
        r"(?:你|您)(?:确认|同意|批准)后我(?:再|就|会|将)[^。，,\n]{0,8}?(?:执行|操作|部署|上线|删除|运行)",
        # the same without the subject, when what is confirmed is the plan put to the human:
        # "确认这个方案后我开始实施" (once this plan is confirmed I start)
        r"确认(?:一下)?(?:这个|这份|以上|上述|该)?(?:方案|计划|设计|思路|改动)[^。\n]{0,6}?后我"
        r"(?:再|就|会|将)?(?:继续|开始|进行|实施|动手)",
        # "needs you (and product) to confirm which one holds"
        r"需要(?:你|您)[^。\n]{0,12}?(?:确认|决定|选择|提供|授权|点头|批准|同意|定一下|定下来|拍板)",
        # the agent halts for the human: "我先停在这里" (I stop here for now)
        r"先停在这(?:里|儿)",
        # the plan put to the human, then "确认后我就开始" (once confirmed, I start)
        r"(?:确认|同意|批准|拍板)(?:之后|以后|后)我(?:再|就|会|将)?(?:开始|继续|动手|实施|执行|改|修改|调整|处理)",
        # someone asked to act, then the agent's next step: "麻烦找运维确认一下…，恢复后我接着构建"
        r"麻烦(?:你|您)?(?:找|联系|问一下|帮忙|帮我)",
        r"(?:恢复|修好|处理好|配好|加好|开通|授权)后(?:告诉我，?)?我(?:再|就)?(?:接着|继续|重新)",
        # a person named by role: "上线前需要产品或法务确认以哪一条为准" (product or legal)
        r"(?:需要|请)(?:产品|法务|老板|管理员|运维|客户|业务方?|甲方|负责人)[^。\n]{0,12}?(?:确认|决定|拍板|批准|审批|"
        r"给个?(?:明确的?)?(?:说法|答复|结论))",
    ),
    "ja": (
        # the next step gated on the human's approval or choice: "承認いただければ始めます"
        r"(?:承認|確認|了承|許可|判断)(?:して)?(?:いただければ|いただけたら|くだされば|もらえれば)[^。\n]{0,16}?(?:始め|着手|開始|進め)",
        # "有効にしてよければ … 切り替えます" (if it is fine to enable it, I switch it on)
        r"(?:して|にして)(?:も)?よければ",
        r"決まり(?:しだい|次第)",  # "as soon as it is decided"
        # "コードを貼っていただければこちらで実行します" (paste it and I'll run it)
        r"(?:貼って|送って|共有して|入力して|実行して|挿して|接続して)(?:いただければ|いただけたら|くだされば|もらえれば)",
        r"(?:出力|結果|エラー|ログ)を(?:貼り付けて|貼って|共有して|送って|教えて)ください",
        r"(?:完了|実行)したら(?:教えて|お知らせ)",
        r"どちらが(?:よろしい|良い|いい)ですか",
        r"(?:決めて|選んで|ご判断|ご指示)(?:ください|下さい)",
        r"(?:ご確認|ご返信|ご指示|ご判断)をお待ちしています",
        # "if you decide / tell me, I'll proceed"
        r"(?:決めて|選んで|教えて|ご確認|ご指示|承認して)(?:いただければ|いただけたら|くだされば|もらえれば)"
        r"[^。\n]{0,12}?(?:進め|対応|実装|続け|適用)",
    ),
    "ko": (
        r"(?:출력|결과|오류|로그)[^.\n]{0,6}?(?:붙여|공유해|보내) ?주세요",
        r"완료(?:되면|하시면) 알려 ?주세요",
        r"어떤 (?:옵션|방법|방식)을 (?:원하시|선호하시)",
        r"확인(?:을)? 기다리(?:겠습니다|고 있습니다)",
        r"주셔야 (?:계속|진행)",
        # "if you decide / tell me, I'll proceed"
        r"(?:정해|선택해|골라|알려|확인해|말씀해|승인해) ?주시면 [^.\n]{0,12}?(?:진행|계속|적용|작업|시작)",
        # any "if you would do it for me, I will …": "등록해 주시면 바로 테스트하겠습니다"
        r"주시면[^.\n]{0,60}?(?:겠습니다|할게요|할께요|드릴게요)",
    ),
    "ru": (
        # the next step gated on the human's approval or choice: "как только подтвердишь, начну"
        r"\b(?:как только|когда|после того как) (?:вы |ты )?(?:подтвердите|подтвердишь|одобрите|одобришь|выберете|выберешь|согласуете|согласуешь|дадите добро|дашь добро)\b",
        r"\b(?:вставьте|вставь|пришлите|пришли|скиньте|скинь)\b[^.\n]{0,25}?\b(?:вывод|результат|ошибк|лог|скриншот)",
        # "Выбери вариант, и я начну" (choose, and I start)
        r"\b(?:выбери|выберите)\b[^.\n]{0,40}?,? и я\b",
        r"\b(?:сообщите|дайте знать|напишите),? (?:когда|как только)\b",
        r"\bкакой (?:вариант|способ) (?:вы )?(?:предпочитаете|выбираете)\b",
        r"\bжду (?:вашего|вашей|твоего|твоей) (?:подтверждения|ответа|решения)\b",
        r"\bкак только вы (?:выполните|запустите|сделаете)\b",
        r"\bбез (?:вашего |твоего )?(?:ответа|решения|подтверждения|согласия)\b",
        # the singular imperative with what it asks: "Подтверди, что делаем так", "скажи, какие"
        r"\b(?:подтверди|скажи|напиши|выбери)\b,? (?:что|какие|какой|какую|ли|пожалуйста)\b",
        # "Нужно продлить тариф, после этого перезапущу" (it needs …, then I restart)
        r"\b(?:нужно|необходимо|надо) [^.\n]{1,60}?,? после (?:этого|чего) (?:я )?(?:перезапущу|"
        r"запущу|продолжу|повторю)",
        r"\b(?:напишите|скажите|подскажите|уточните),? (?:какой|какую|какие|что|ли|как|нужно|нужен)\b",
        # a polite imperative with "please": "Добавьте, пожалуйста, публичный ключ …"; not
        # a review invited after finished work ("Проверьте, пожалуйста, всё ли устраивает")
        r"\b(?!(?:проверьте|посмотрите|оцените)\b)\w+(?:те|тесь),? пожалуйста\b",
        r"\bпожалуйста,? (?!(?:проверьте|посмотрите|оцените)\b)\w+(?:те|тесь)\b",
    ),
    "uk": (
        # the next step gated on the human's approval or choice: "щойно підтвердите, почну"
        r"\b(?:як тільки|коли|щойно|після того як) (?:ви |ти )?(?:підтвердите|підтвердиш|схвалите|схвалиш|оберете|обереш|погодите|погодиш)\b",
        r"\b(?:вставте|встав|надішліть|надішли|скиньте|скинь)\b[^.\n]{0,25}?\b(?:вивід|результат|помилк|лог|скріншот)",
        # "Обери варіант, і я почну" (choose, and I start)
        r"\b(?:обери|оберіть|вибери|виберіть)\b[^.\n]{0,40}?,? (?:і|й) я\b",
        r"\b(?:повідомте|дайте знати|напишіть),? (?:коли|як тільки)\b",
        r"\bякий варіант (?:ви )?(?:обираєте|оберете)\b",
        r"\bчекаю (?:вашого|вашої) (?:підтвердження|відповіді|рішення)\b",
        r"\b(?:напишіть|скажіть|підкажіть|уточніть),? (?:який|яку|які|що|чи)\b",
        r"\b(?:підтверди|скажи|напиши|обери|вибери)\b,? (?:що|які|який|яку|чи|будь ласка)\b",
        # a polite imperative with "please": "Додайте, будь ласка, ключ …"
        r"\b(?!(?:перевірте|подивіться|оцініть)\b)\w+(?:іть|те),? будь ласка\b",
        r"\bбудь ласка,? (?!(?:перевірте|подивіться|оцініть)\b)\w+(?:іть|те)\b",
    ),
    "pt": (
        r"\b(?:responda|responde|escreva) (?:com )?(?:quote|code)\b",
        # the next step gated on the human's approval or choice: "assim que você aprovar, começo"
        r"\b(?:assim que|quando|depois que|logo que) (?:você|vc|tu) (?:me )?(?:aprovar|confirmar|escolher|validar|decidir|der o ok|disser|responder|definir)\b",
        r"\bantes da sua (?:resposta|confirmação|aprovação|decisão)\b",
        r"\bme confirma (?:se|que|qual|pra)\b",
        r"\b(?:cole|envie|compartilhe|mande)\b[^.\n]{0,25}?\b(?:saída|resultado|erro|log)\b",
        r"\bme avise (?:quando|assim que)\b",
        r"\bqual (?:opção|abordagem) você prefere\b",
        r"\baguardo (?:a )?sua (?:confirmação|resposta|aprovação|decisão)\b",
    ),
    "it": (
        # "Rispondi "ok" e procedo": an answer asked for in quotes or code
        r"\b(?:rispondi|rispondimi|scrivi) (?:con )?(?:quote|code)\b",
        # the next step gated on the human's approval or choice: "appena confermi, parto"
        r"\b(?:appena|non appena|una volta che|quando) (?:mi )?(?:confermi|approvi|scegli|validi|decidi|dai l\'ok|dai il via)\b",
        r"\b(?:incolla|incollami|invia|inviami|condividi)\b[^.\n]{0,25}?"
        r"\b(?:output|risultato|errore|log)\b",
        r"\bfammi sapere (?:quando|appena)\b",
        r"\bquale opzione preferisci\b",
        r"\baspetto (?:la tua|una tua|la sua) (?:conferma|risposta|decisione)\b",
    ),
    "vi": (
        # the next step gated on the human's approval or choice: "bạn cho mình biết chọn phương án nào, mình sẽ bắt đầu"
        r"\bbạn (?:cho (?:mình|tôi|em) biết|duyệt|xác nhận|đồng ý|chọn|quyết định)\b[^.\n]{0,60}?(?:mình|tôi|em) (?:sẽ )?(?:bắt đầu|làm tiếp|tiếp tục|triển khai|code)\b",
        r"\b(?:dán|gửi) (?:cho tôi )?(?:kết quả|đầu ra|lỗi|log)\b",
        r"\bbáo (?:cho )?tôi (?:khi|sau khi)\b",
        r"\bbạn muốn (?:chọn )?(?:phương án|cách) nào\b",
        r"\bchờ (?:bạn )?xác nhận\b",
        r"\bbạn cần\b(?! (?:mình|tôi|em) )",  # "you need to ..."; not "bạn cần mình làm gì thêm"
        r"\bbạn gửi (?:cho )?(?:mình|tôi|em)\b",  # "send me ..."
        # "whichever you choose, I'll carry on": the next step waits on the human
        r"\bbạn (?:chọn|quyết định|xác nhận)\b[^.\n]{0,40}\bthì (?:mình|tôi) (?:làm tiếp|tiếp tục|triển khai)\b",
    ),
    "id": (
        # the next step gated on the human's approval or choice: "tolong konfirmasi ...; setelah kamu setujui, saya mulai"
        r"\btolong (?:konfirmasi|konfirmasikan|pilih|tentukan|putuskan|beri tahu|berikan|kirim|kirimkan)\b",
        r"\b(?:setelah|begitu|kalau|jika) (?:kamu|anda) (?:setujui|menyetujui|setuju|konfirmasi|mengonfirmasi|pilih|memilih)\b",
        r"\b(?:tempel|tempelkan|kirim|kirimkan|bagikan)\b[^.\n]{0,25}?\b(?:output|hasil|error|log)",
        r"\bberi tahu saya (?:jika|setelah|kalau) sudah\b",
        r"\bmana yang (?:anda|kamu) (?:pilih|inginkan)\b",
        r"\bmenunggu konfirmasi\b",
    ),
    "tr": (
        # the next step gated on the human's approval or choice: "onay verirsen başlıyorum"
        r"\bonay(?:ı|ınızı)? (?:verirsen|verirseniz|verdiğinde|verdiğinizde|verince)\b",
        r"\bonaylarsan\b",
        r"\b(?:karar verdiğinizde|karar verdiğinde|seçtiğinizde|onayladığınızda|karar verince)\b",
        r"\b(?:çıktıyı|sonucu|hatayı|logu) (?:buraya )?(?:yapıştırın|gönderin|paylaşın|atın)\b",
        # "Sizden birkaç şey rica edeceğim:" (I'll ask a few things of you)
        r"\bsizden\b[^.\n]{0,40}\brica\b",
        # "Sözleşme onaylandıktan sonra bana haber verin" (once it's approved, let me know)
        r"\w+(?:dıktan|dikten|duktan|dükten|tıktan|tikten|tuktan|tükten) sonra (?:bana )?haber "
        r"verin\b",
        # "sizin hesabınızla giriş yapmak gerekiyor" (it takes logging in with your account)
        r"\bsizin hesabınız\w* [^.\n]{0,40}\bgerek\w*",
        r"\bbitince (?:bana )?(?:haber verin|söyleyin)\b",
        r"\bhangi (?:seçeneği|yöntemi) tercih\w*",
        r"\bonayınızı bekliyorum\b",
        r"\b\w+(?:manız|meniz) gerek(?:iyor|ir|ecek)\b",  # "you need to ..."
        r"\bonaylarsanız\b",  # "if you approve, ..."
        # "Oranı bildirirseniz … başlayacağım", "Onaylanınca haber verirseniz … tekrar denerim":
        # if you tell me (the rate, when it is approved), I go on
        r"\b(?:haber verirseniz|haber verirsen|bildirirseniz|bildirirsen|iletirseniz|"
        r"paylaşırsanız|gönderirseniz|seçerseniz|seçersen)\b",
    ),
    "pl": (
        # the next step gated on the human's approval or choice: "jak tylko zatwierdzisz, zacznę"
        r"\b(?:jak tylko|gdy tylko|gdy|kiedy|po tym,? jak) (?:\w+ )?(?:zatwierdzisz|zatwierdzicie|potwierdzisz|potwierdzicie|wybierzesz|wybierzecie|zaakceptujesz|zaakceptujecie)\b",
        r"\b(?:wklej|prześlij|wyślij)(?: tutaj)? (?:wynik|wyjście|błąd|log)\w*",
        r"\bdaj (?:mi )?znać,? (?:gdy|kiedy|jak)\b",
        r"\bktórą opcję (?:wybierasz|wolisz)\b",
        r"\b(?:wklej|podeślij|prześlij|podaj) mi\b",  # "wklej mi tutaj listę" (paste me the list)
        r"\bczekam na (?:twoje|twoją|pana|pani) (?:potwierdzenie|odpowiedź|decyzję)\b",
    ),
    "nl": (
        r"\blaat (?:me|het) weten\b",
        r"\bkun je\b",
        r"\bkunt u\b",
        # "Kies optie A of B, dan ga ik verder" (choose, then I go on)
        r"\bkies\b[^.\n]{0,40}?,? dan (?:ga|begin|maak|werk|bouw) ik\b",
    ),
    # Devanagari's vowel signs are not word characters: plain substrings
    "hi": (
        r"कृपया",
        r"बताइए",
        r"बताएं",
        r"दीजिए",
        # "आपको hPanel में जाकर यह की जोड़नी होगी" (you will have to add this key)
        r"आपको [^।.\n]{0,80}?(?:होगी|होगा|होंगी|होंगे)",
        # Hinglish: "aap approve kar do to main shuru karta hoon"
        r"\b(?:aap|ap|tum) (?:approve|confirm|choose|select|ok|okay|haan) (?:kar do|kardo|karo|kar dein|kar dijiye|bol do|bolo)\b",
        r"\bconfirm (?:karo|kar do|kardo|kijiye|kar dijiye)\b",
        r"\bbatao\b[^.\n]{0,80}\bya\b",  # "tell me: X or Y"
        # "Batao kaunsa branch base lena hai" (tell me which branch to base it on)
        r"\b(?:batao|bataiye|bata do|bata dijiye),? (?:kaunsa|kaun sa|kaunsi|kya|kaise|kab|kahan)\b",
    ),
    "ar": (r"يرجى", r"من فضلك", r"الرجاء"),
    # Malay: "Awak kena login ke akaun Exabytes dan tambah rekod A" (you have to ...)
    "ms": (
        r"\b(?:awak|anda|kau) (?:kena|perlu|mesti) (?:\w+ ){0,2}(?:login|log masuk|tambah|masukkan|"
        r"ambil|tukar|beri|bagi|daftar|aktifkan|sahkan)\b",
        # "Sahkan dulu sebelum saya jalankan" (confirm first, before I run it)
        r"\bsahkan (?:dulu|dahulu)\b",
    ),
    # Hebrew "please" ("תוסיף אותו לצ'אט בבקשה ואז …"), as the Arabic ones above
    "he": (r"בבקשה",),
}
