"""Claims in the other languages real agents write in: hedges, claims of done, and
verification asserted in words.

The same languages as `world.py` (Chinese, Japanese, Korean, Russian, Ukrainian,
Portuguese, Italian, Vietnamese, Indonesian, Turkish, Polish, and more), for the
categories of `claims.py`. Each dict here is merged into its category in
`lexicon/__init__.py`. Scripts without word spaces (CJK) are matched as plain
substrings; the rest keep word boundaries.
"""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

HEDGE_WORLD: Lexicon = {
    "zh": (
        # and in traditional characters ("應該可以了": Taiwan, Hong Kong)
        r"(?:应该|應該)(?:可以|能|会|會|就|没有|沒有|已经|已經|不会|不會|是|正常)",
        r"应当",
        r"理论上",
        r"估计",
        r"大概",
        r"或许",
        r"也许",
        # not run, as the German "nicht getestet": "没实际跑", "没有运行测试"
        r"没(?:有)?(?:实际|真正)?(?:跑|运行|测试|验证)(?:过)?",
    ),
    "ja": (r"はずです", r"はずだ", r"と思います", r"かもしれません", r"見込みです"),
    "ko": (
        r"것 같습니다",
        r"아마",
        r"될 것입니다",
        r"것으로 예상",
        r"것으로 보입니다",
        r"(?:될|않을) (?:거예요|겁니다|거에요)",  # "… 리다이렉트될 거예요" (it will …): the same, plainer
    ),
    "ru": (
        r"\bдолж(?:ен|на|но|ны) (?:\w+ )?(?:работать|заработать|пройти|исчезнуть|решить|быть|стать|"
        r"выпуститься|появиться|обновиться|примениться|собраться|запуститься)",
        r"\bтеперь (?:\w+ ){0,3}долж(?:ен|на|но|ны)\b",  # "now ... should ...": a prediction
        r"\bдолж(?:ен|на|но|ны) (?:теперь|уже)\b",
        r"\bскорее всего\b",
        r"\bнаверное\b",
        r"\bвероятно\b",
        r"\bпо идее\b",
        r"\bнадеюсь\b",
    ),
    "uk": (
        # "має працювати" (should work); not "має пройти …", "має" is as often "must" (a step the
        # human has to take: "оплата має пройти через ваш кабінет")
        r"\bмає (?:\w+ )?(?:працювати|запрацювати)",
        r"\bповинн[оаі]\b",
        r"\bтепер (?:\w+ ){0,3}(?:має|мають|повинн\w*)\b",  # "now ... should ..."
        r"\bмабуть\b",
        r"\bймовірно\b",
    ),
    "pt": (
        r"\bdev(?:e|eria|erá) (?:\w+ )?(?:funcionar|estar|resolver|aparecer|carregar|conseguir)",
        r"\bagora (?:já )?dev(?:e|eria)\b",  # "now it should ...": a prediction, any verb
        r"\bprovavelmente\b",
        r"\bacho que\b",
        r"\bacredito que\b",
        r"\bespero que\b",
    ),
    "it": (
        r"\bdovrebbe(?:ro)? (?:\w+ )?(?:funzionare|essere|risolvere|apparire|andare)",
        # any verb after it, a clitic too: "Dovrebbe rinnovarli automaticamente"
        r"\bdovrebbe(?:ro)? (?:ora |adesso |già |anche |sempre )?\w+(?:are|ere|ire|(?:ar|er|ir)(?:l[aeio]|ne|si|ci|mi|ti|vi))\b",
        r"\bprobabilmente\b",
        r"\bpenso che\b",
        r"\bcredo che\b",
    ),
    "vi": (r"\bcó lẽ\b", r"\bsẽ hoạt động\b", r"\bchắc là\b"),
    "id": (r"\b(?:se)?harusnya\b", r"\bakan menghasilkan\b", r"\bmungkin\b", r"\bsaya rasa\b"),
    "tr": (
        r"\bolmalı\b",
        r"\bmuhtemelen\b",
        r"\bçalışmalı\b",
        r"\bçalışması gerek(?:ir|iyor)\b",
        # "Artık küçük ekranlarda da sorun çıkmaması lazım" (now ... should not ...)
        r"\bartık [^.\n]{0,60}\b\w+(?:ması|mesi|maması|memesi) lazım\b",
    ),
    # Czech: "mělo by fungovat" (should work), "pravděpodobně", "myslím, že"
    "cs": (
        r"\bměl[aoy]? by (?:\w+ )?(?:fungovat|projít|být|zmizet|vyřešit)\b",
        r"\bby se (?:teď |nyní )?měl[aoy]?\b",  # "by se teď měly zobrazovat" (should now show)
        r"\bpravděpodobně\b",
        r"\bmyslím,? že\b",
    ),
    "pl": (
        r"\bpowin(?:no|ien|na|ny) (?:\w+ )?(?:działać|być|przechodzić)",
        r"\bpowin(?:no|ien|na|ny|ni) (?:się )?teraz\b",  # "should now ...": a prediction
        r"\bprawdopodobnie\b",
    ),
    # "should work / run" (Devanagari: plain substrings)
    "hi": (
        r"काम करना चाहिए",
        r"चलना चाहिए",
        r"शायद",
        # the same in Hinglish: "Ab jump height har FPS pe same honi chahiye"
        r"\b(?:hona|honi|hone|chalna|chalni|karna|karni) chahiye\b",
    ),
    # the verb comes last in Dutch too: "Dat zou het verschil ... nu moeten oplossen"
    "nl": (
        r"\bzou(?:den)? (?:[\w-]+ ){0,12}moeten (?:werken|lukken|oplossen|verhelpen|verdwijnen|"
        r"kloppen|slagen|gaan)\b",
        r"\bwaarschijnlijk\b",
        r"\bvolgens mij\b",
        r"\bik denk\b",
    ),
    # "should work", "supposedly", "most likely" (plain substrings, as the other `ar` cues)
    "ar": (
        r"يجب أن يعمل",
        r"يجب أن تعمل",
        r"من المفترض أن",
        r"على الأرجح",
        r"أعتقد أن",  # "I think that ..."
        r"يجب أن \S+ (?:\S+ )?الآن",  # "should ... now": a prediction, any verb
    ),
    # Thai "น่าจะ" (should / probably: "น่าจะใช้งานได้แล้ว"), plain substrings like the CJK
    "th": (r"น่าจะ",),
    # Filipino "Dapat gumagana na" (should work now)
    "tl": (r"\bdapat (?:gumagana|gumana|maayos|ayos|okay|ok) na\b",),
    # Hebrew "אמור לעבוד" (should work), "כנראה" (probably)
    "he": (r"אמור(?:ה|ים|ות)? (?:לעבוד|להיות תקין)", r"כנראה"),
    # Malay "sepatutnya" (should), as Indonesian "seharusnya"
    "ms": (r"\bsepatutnya\b",),
}

DONE_WORLD: Lexicon = {
    "zh": (
        r"已(?:经|經)?(?:成功)?(?:修复|修復|完成|实现|實現|添加|更新|解决|解決|创建|建立|删除|刪除|推送|"
        r"提交|合并|合併|修改|配置|部署|处理|處理|修好)",
        r"完成[了！!。]",
        r"成功[了！!。]",
        r"搞定",
        r"修复了",
        r"解决了",
        r"(?:写|做|改|弄|配|搭)好了",  # "部署脚本写好了" (the script is written)
    ),
    "ja": (
        r"完了しました",
        r"修正しました",
        r"実装しました",
        r"追加しました",
        r"更新しました",
        r"作成しました",
        r"完了です",
        r"成功しました",
        r"(?:コミット|プッシュ|デプロイ|マージ|リリース)しました",
    ),
    "ko": (
        r"완료(?:했습니다|되었습니다|됐습니다)",
        r"완료[.!。]",  # "적용 완료." (applied, done)
        r"끝났습니다",
        r"마쳤습니다",
        r"해결했습니다",
        r"수정했습니다",
        r"구현했습니다",
        r"추가했습니다",
        r"성공적으로",
    ),
    "ru": (
        r"\bготово\b",
        r"\bготова\b",  # "Интеграция с СДЭК готова"
        r"\bсделано\b",
        r"\bисправил[аи]?\b",
        r"\b(?:поправил|починил|доработал|переписал)[аи]?\b",
        r"\bисправлен[оа]?\b",
        r"\bдобавил\b",
        r"\bреализовал\b",
        r"\bвыполнено\b",
        r"\bуспешно\b",
        r"\bзавершен[оа]?\b",
    ),
    "uk": (
        r"\bвиправи(?:в|ла|ли)\b",
        r"\bполагоди(?:в|ла|ли)\b",
        r"\bзроблено\b",
        r"\bдодав\b",
        r"\bуспішно\b",
        r"\bготово\b",
    ),
    "pt": (
        # the agent's own "I fixed / implemented / added ..."
        r"\b(?:corrigi|implementei|adicionei|atualizei|resolvi|terminei|concluí|criei|ajustei)\b",
        r"\bconcluíd[oa]\b",
        r"\bimplementad[oa]s?\b",
        r"\bcorrigid[oa]s?\b",
        r"\bcom sucesso\b",
        r"\bfeito\b",
    ),
    "it": (
        r"\bcompletat[oa]\b",
        r"\bimplementat[oa]\b",
        r"\bcorrett[oa]\b",
        r"\bcon successo\b",
        r"\bfatto\b",
    ),
    "vi": (r"\bhoàn thành\b", r"\bđã (?:sửa|thêm|cập nhật|triển khai|tạo)\b", r"\bthành công\b"),
    "id": (r"\bberhasil\b", r"\bselesai\b", r"\bsudah (?:beres|jadi|siap)\b"),
    "ms": (r"\b(?:dah|sudah) (?:siap|betulkan|dibetulkan|selesai|fix)\b",),
    "tr": (
        r"\btamamlandı\b",
        r"\bbaşarıyla\b",
        r"\bdüzeltildi\b",
        r"\btamamdır\b",
        r"\b(?:özellik|iş|görev|hepsi) tamam\b",  # "özellik tamam" (the feature is done)
    ),
    # "opgelost", "afgerond", "voltooid" (fixed, finished, completed); not "klaar", which is
    # as often "ready" (waiting on someone: "staat klaar voor review"), nor "bijgewerkt",
    # "toegevoegd", which, like the French "ajoutées", also say what is found in place
    "nl": (r"\b(?:opgelost|afgerond|voltooid)\b", r"\b(?:alles )?staat gecommit\b"),
    "cs": (r"\bhotovo\b", r"\b(?:dokončen|opraven|implementován|nasazen)[oaáé]\b", r"\búspěšně\b"),
    "pl": (r"\bgotowe\b", r"\bzrobione\b", r"\bpomyślnie\b", r"\bnaprawion[oey]\b"),
    # "I finished ...", "... was fixed / added / implemented / ...", "completed", "successfully"
    "ar": (r"انتهيت من", r"تم (?:إصلاح|إضافة|تنفيذ|تحديث|إنشاء|حل)", r"اكتمل(?:ت)?", r"بنجاح"),
}

ASSERTED_WORLD: Lexicon = {
    "zh": (
        r"(?:所有|全部)测试(?:都|均|已)?(?:已经|已)?通过",
        r"测试(?:全部|均|都)(?:已)?通过",
        r"已(?:经)?(?:测试|验证)",
        r"(?:验证|测试|自测)过了",
        r"验证(?:通过|成功)",
        r"(?:运行|工作|一切)正常",
        r"正常(?:工作|运行)",
    ),
    "ja": (
        r"テスト(?:は|が)?(?:すべて|全て)?(?:通り|パスし|成功し)ました",
        r"(?:全|すべての|全ての)テスト(?:が|を)?(?:通過|パス|成功)",  # "全テスト通過しています"
        r"動作確認(?:済み|しました|できました)",
        r"(?:確認|検証)しました",
        r"正常に動作(?:しています|します|しました)",
    ),
    "ko": (
        r"테스트(?:가|를|는)? (?:모두 )?통과",
        r"(?:확인|검증)했습니다",
        r"정상적으로 (?:작동|동작)",
    ),
    "ru": (
        r"\bвсе тесты (?:проходят|прошли|зелёные|зеленые)\b",
        r"\bтесты (?:проходят|прошли)\b",
        r"\b(?:проверил|протестировал)(?:а|и)?\b",
        r"\bработает (?:корректно|правильно|отлично|как надо)\b",
    ),
    "uk": (
        r"\bвсі тести (?:проходять|пройшли)\b",
        r"\b(?:перевірив|протестував)(?:ла|ли)?\b",
        r"\bпрацює (?:коректно|правильно)\b",
    ),
    "pt": (
        r"\b(?:todos )?os testes (?:passam|passaram|estão passando)\b",
        r"\b(?:testado|testada|testados|testadas|verificado|verificada|verificados|verificadas)\b",
        r"\b(?:verifiquei|testei) (?:tudo|todos|e)\b",  # "Verifiquei tudo e está funcionando"
        r"\bfunciona (?:perfeitamente|corretamente|bem)\b",
    ),
    "it": (
        r"\btutti i test (?:passano|sono passati)\b",
        r"\bi test (?:\w+ ){0,3}(?:passano|sono passati)(?: tutti)?\b",
        r"\b(?:testato|testata|testati|testate|verificato|verificata|verificati|verificate)\b",
        r"\bfunziona (?:perfettamente|correttamente|bene)\b",
    ),
    "vi": (
        r"\btất cả (?:các )?(?:bài )?(?:test|kiểm thử) (?:đều )?(?:đã )?(?:pass|qua|thành công)\b",
        r"\bđã (?:kiểm tra|xác minh|test)\b",
        r"\bhoạt động (?:tốt|bình thường|chính xác)\b",
    ),
    "id": (
        r"\bsemua (?:tes|test|pengujian) (?:lulus|berhasil)\b",
        r"\bsudah (?:dites|diuji|diverifikasi)\b",
        r"\bberfungsi dengan (?:baik|benar)\b",
    ),
    "tr": (
        r"\btüm testler (?:geçti|geçiyor|başarılı)\b",
        r"\b(?:test edildi|doğrulandı)\b",
        r"\bsorunsuz çalışıyor\b",
        # "Test ettim, her şey çalışıyor." (I tested it, everything works)
        r"\b(?:test ettim|denedim|kontrol ettim)\b",
        r"\bher şey çalışıyor\b",
    ),
    "cs": (
        r"\b(?:všechny )?testy (?:prošly|procházejí)\b",
        r"\b(?:ověřil|otestoval)[ai]? jsem\b",
        r"\bfunguje (?:správně|bez problémů)\b",
    ),
    # Arabic "I tested everything", "all the tests pass", "works excellently"
    "ar": (
        r"اختبرت كل شيء",
        r"(?:كل|جميع) الاختبارات (?:ناجحة|نجحت|تعمل)",
        r"يعمل بشكل (?:ممتاز|صحيح|مثالي)",
    ),
    # Hebrew "I checked everything", "all the tests pass"
    "he": (r"בדקתי (?:הכל|את הכל)", r"כל (?:הטסטים|הבדיקות) (?:עוברים|עוברות|עברו)"),
    # Thai "tested every case", "all pass"
    "th": (r"ทดสอบ(?:ครบ|หมด|ทุก)", r"ผ่านหมด", r"ผ่านทั้งหมด"),
    # Filipino "Na-test ko na lahat", "nasubukan ko na"
    "tl": (r"\bna-?test ko na\b", r"\bnasubukan ko na\b"),
    "pl": (
        r"\bwszystkie testy (?:przechodzą|przeszły)\b",
        r"\b(?:przetestowa|zweryfikowa)\w+",
        r"\bdziała (?:poprawnie|prawidłowo|bez zarzutu)\b",
    ),
}
