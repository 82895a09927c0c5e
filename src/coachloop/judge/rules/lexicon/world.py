"""Work under way and requests in the other languages real agents write in.

Real agents answer in the human's language: Chinese, Japanese, Korean, Russian,
Ukrainian, Portuguese, Italian, Vietnamese, Indonesian, Turkish and Polish besides the
English, German, Spanish and French of `flow.py` (claims: `claims_world.py`). Each dict here is
merged into its category in `lexicon/__init__.py`. Scripts without word spaces (CJK)
are matched as plain substrings; the rest keep word boundaries.
"""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

ONGOING_WORLD: Lexicon = {
    "zh": (
        r"让我(?:们)?",
        r"我(?:来|先(?!不)|将|会|现在)",  # not "我先不动" (I leave it for now)
        # not a suggestion left to the human: "下一步可以考虑…" (as a next step one could …)
        # not "接下来你可以 …" (next, you can …: the human's step)
        r"接下来(?!可以考虑|可考虑|建议|如果|你|您)",
        # nor "下一步：无" (next: none), nor "下一步如果要…" (next, if you want …)
        r"下一步(?!可以考虑|可考虑|建议|如果|[：:] ?无)",
        r"现在(?:开始|来|让|补充|添加|修改|运行|处理)",
        r"正在",
        # "I carry on with ...", "starting from step 1", "then run ..." (not "then ran": 了/过)
        r"我接着",
        r"我继续",
        r"接着(?:改|做|处理|迁移|写)",
        r"先从",
        r"然后(?:再)?(?:跑|运行|执行)(?![了过])",
        # "开始改 `pipelines.py`", "先看一下 … 再决定" (the agent's own next step; not "您先看一下",
        # the human asked to look)
        # not "（您确认）后我就开始改" (a start that waits on a condition)
        r"(?<![就再才后])开始(?:改|写|做|修|处理|实现|迁移|排查)",
        r"(?<![您你])先看(?:一下|看)?",
    ),
    "ja": (
        r"しましょう",
        r"ていきます",  # "-te ikimasu": "見ていきます", "直していきます" (work going on)
        r"を確認します",
        r"次に",
        r"してみます",
        r"今から",
        r"確認してみます",
        r"修正します",
        r"実行します",
        r"を進めています",
        r"から始めます",
        r"に進みます",
        r"を調べます",
        r"調べます",
        r"を開きます",
        r"に切り替えます",
        r"を続けます",
        # the non-past "I'll …" of a step about to be taken ("この方法で進めます", "作成します")
        r"で進めます|を試みます|を(?:作成|追加|実装|更新|インストール)します",
        # "`src/bc.rs` を編集中。" (editing it now): a step under way
        r"(?:編集|作業|実行|調査|実装|対応|修正)中(?:です)?(?:。|$)",
        # "まず既存のテストを実行して、…か確認します" (first I run …, and check whether …)
        r"^まず",
        r"に着手します",  # "タスク 3 に着手します" (I start on task 3)
        r"か確認します",
    ),
    "ko": (
        r"하겠습니다",
        r"해 보겠습니다",
        r"확인하겠습니다",
        r"다음으로",
        r"는 중입니다",
        r"진행합니다",
        # "이어서" (continuing), not "이어서 돌릴 수 있습니다" (it can be continued)
        r"이어서(?![^.。\n]{0,24}수 있)",
        r"(?:작업|진행)(?:에|으로)? 들어갑니다",  # "(now) going into the work"
    ),
    "ru": (
        r"\bдавайте\b",
        r"\bсейчас (?:я )?(?:\w+ю|\w+у)\b",
        r"\bтеперь (?:я )?(?:\w+ю|\w+у)\b",
        r"\bзатем\b",
        r"\bпроверю\b",
        r"\bзапущу\b",
        r"\bпосмотрю\b",
        r"\b(?:запускаю|пробую|проверяю|исправляю|переписываю|добавляю|начинаю|продолжаю|"
        r"устанавливаю|перехожу)\b",
        r"\bпотом (?:\w+ю|\w+у)\b",
    ),
    "uk": (
        r"\bзараз (?:я )?\w+\b",
        r"\bдавай\b",
        r"\bперевірю\b",
        r"\bспочатку\b",
        r"\bдалі\b",
        r"\bпочну\b",
        r"\bперезапущу\b",
        # the first person's present: what it is doing now (as the Russian ones above)
        r"\b(?:беру|переношу|виправляю|переписую|додаю|запускаю|перевіряю|починаю|продовжую|"
        r"встановлюю|переходжу)\b",
    ),
    "pt": (
        # not leaving something for the human's review: "vou deixar o PR em rascunho para você revisar"
        r"\bvou (?:primeiro |agora |antes |logo )?(?:\w+ar|\w+er|\w+ir)\b"
        r"(?<!deixar)(?<!manter)|\bvou (?:deixar|manter)\b(?![^.\n]{0,60}\bpara (?:você|vc|o senhor) revisar\b)",
        r"\bagora (?:vou|vamos)\b",
        r"\bvamos (?:\w+ar|\w+er|\w+ir)\b",
        r"\bem seguida\b",
        r"\bdeixe-me\b",
        r"\bestou (?:\w+ando|\w+endo|\w+indo)\b",
        r"\bseguindo com\b",
    ),
    "it": (
        r"\bprocedo\b",
        r"\bvado a\b",
        r"\blasciami\b",
        r"\bpasso a\b",
        r"\bsto (?:\w+ando|\w+endo)\b",
        # "ora aggiorno" (now I update); not "ora stimo ~1.400" (now I estimate), "ora tutto"
        r"\b(?:adesso|ora) (?!(?:stimo|penso|credo|vedo|so|ho|sono|tutto|questo|quello|solo|"
        r"meno|nuovo|corretto|pronto)\b)(?:l[aoei] |gli )?\w+o\b",
        r"\binizio (?:da|con|dal|dalla|dallo)\b",
        r"\bpoi (?:\w+erò|\w+irò|\w+arò)\b",
    ),
    "vi": (
        r"\btôi sẽ\b",
        # "Tiếp theo, mình sửa …" (next, I fix …); not "10 dòng tiếp theo" (the next 10 rows)
        r"(?:(?<!.)|(?<=[.!:;] ))tiếp theo\b",
        r"\bđể tôi\b",
        r"\bmình sẽ\b",
        r"\bbây giờ\b",
        r"\blàm tiếp\b",  # "(I) carry on with it"
        # "Giờ bắt đầu viết lại …" (now starting to rewrite …)
        r"\bbắt đầu (?:viết|sửa|làm|chạy|cài|tạo)\b",
    ),
    "id": (
        r"\bsaya akan\b",
        r"\bselanjutnya\b",
        r"\bmulai (?:dari|dengan)\b",
        # not "lalu jalankan" (then run): without a subject it asks the human as often
        r"\bsaya (?:sedang|lagi)\b",
        r"\bberikutnya\b",  # "next", as "selanjutnya"
        # "Sedang menulis test …" (writing tests now), subjectless as agents write it; not "saya
        # jalankan sekarang", which waits on a yes as often ("kalau setuju, saya jalankan sekarang")
        r"^sedang (?:menulis|membuat|memperbaiki|menjalankan|mengerjakan|membaca|menguji)\b",
    ),
    "tr": (
        # "now" with a step of its own ("şimdi testleri düzeltelim"), not "şimdi PM2" (for now)
        r"\bşimdi (?:\w+ ){0,3}\w+(?:elim|alım)\b",
        r"\bardından\b",
        # the first person's present (-iyorum) and future (-eceğim): what it does or will do
        # (not the negative -mıyorum, -meyeceğim: "test edemiyorum" is "I cannot test")
        r"\b\w+(?<!m)(?:ıyorum|iyorum|uyorum|üyorum)\b",
        r"\b\w+(?<!mey)(?<!may)(?:eceğim|acağım)\b",
    ),
    "pl": (
        r"\bteraz (?:\w+ę|\w+m)\b",
        r"\bnastępnie\b",
        r"(?<!nie )\bsprawdzę\b",
        r"\bprzejdę\b",
        r"\b(?:zaczynam|uruchamiam|przeglądam|podmieniam|sprawdzam|poprawiam|dodaję)\b",
        r"\b(?:robię|zajmę się|biorę się za) (?:to |tym )?(?:teraz|zaraz)\b",
    ),
    "nl": (r"\bik \w+ nu\b", r"\bnu ga ik\b", r"\bik ga (?:nu )?\w+\b", r"\bga ik verder\b"),
    # Czech: "pokračuju na …", "Nejdřív si projdu …", "Přepínám do Code mode a začínám …"
    "cs": (
        r"\bpokračuj(?:u|i|eme)\b",
        r"^nejdřív\b",
        r"\bzačínám\b",
        r"\bpřepínám\b",
        r"\bteď (?:\w+ )?(?:udělám|opravím|přidám|spustím|projdu)\b",
    ),
    # Devanagari's vowel signs are not word characters: plain substrings
    # "…ता हूँ" is "I do …", but "कर सकता हूँ" is "I can do" (an offer) and "चाहता हूँ" "I want"
    "hi": (
        r"रहा हूँ",
        r"रही हूँ",
        r"(?<!सक)(?<!चाह)ता हूँ",
        r"(?<!सक)(?<!चाह)ती हूँ",
        r"ूँगा",
        r"ूँगी",
        r"अब ",
        # the same in Hinglish: "main check kar raha hoon", "ab … compare karunga"; not "chal raha
        # hai" (a state: "production me purana version chal raha hai"), nor a bare "karunga",
        # which offers as often ("agar chaho to main fix karunga")
        r"\b(?:kar|likh|dekh|bana|padh) (?:raha|rahi) (?:hoon|hun|hu)\b",
        r"\b(?:ab|abhi|pehle|phir|baad)\b[^.?\n]{0,60}\bkar(?:unga|ungi|enge)\b",
        # "Pehle schema dekh leta hoon, phir route banaunga" (first I look, then I build)
        r"\bpehle\b[^.?\n]{0,60}\b(?:dekh|padh|check kar) (?:leta|leti) (?:hoon|hun|hu)\b",
    ),
    # Hebrew "first I'll check …, then I'll add …": the first person's future after "first",
    # "then" (not "אפשר", it is possible; "אין", "אם", "אני", "אחרי", "אבל", "או")
    "he": (r"(?:קודם|ואז|אחר כך) א(?!פשר|ין|ם |ני |ת |תה|חרי|ו |בל)[א-ת]{2,}",),
    # Persian "first I check …, then I build …": a present first person after "first"
    "fa": (r"(?:اول|ابتدا) [^.\n]{0,80}?می[‌ ]?\S+م\b",),
    # "I will" + a verb of work: the future prefix "سأ" alone would also begin "سأل" (asked)
    "ar": (
        r"الآن سأ",
        r"سأقوم",
        r"سأبدأ",
        r"سأعيد",
        r"سأكتب",
        r"سأضيف",
        r"سأصلح",
        r"سأجرب",
        r"سأشغل",
        r"سأغير",
        r"سأقيس",
        r"سأنقل",
        r"أقرأ الآن",  # "I'm reading … now"
        r"أعمل (?:الآن )?على",  # "I'm working on"
    ),
}

# Requests addressed to the human (to answer, decide, run, paste, confirm, log in).
ASK_WORLD: Lexicon = {
    "zh": (
        r"请(?:告诉|确认|提供|运行|执行|检查|选择|回复|发送|粘贴|在|先)",
        r"告诉我",
        r"您(?:想|希望|可以)",
        r"你(?:想|希望)",
        r"发(?:给)?我",
        r"截图",
        r"粘贴(?:进|到)",
        r"回复",
    ),
    "ja": (
        # not "もしまだエラーが出るようなら教えてください" (if it still fails, tell me: help offered)
        # ("終わったら教えてください", tell me once it's done, still waits on the human)
        r"(?<!なら)(?<!場合は)教えてください",
        r"確認してください",
        r"実行してください",
        r"いかがでしょうか",
        r"しますか",
        r"お願いします",
        # "トークンを設定していただければ…続けます", "判断をお願いしたい"
        r"していただければ",
        r"(?:共有|設定|追加|許可|承認|入力)して(?:ください|いただけますか)",
        r"(?:ご)?判断をお願い",
        r"ご確認(?:を)?お願い",
    ),
    "ko": (
        # not "여전히 두 번 오면 알려주세요" (if it still happens, let me know: help offered)
        # ("완료되면 알려주세요", tell me once it's done, still waits on the human)
        *(r"(?<!면 )알려주세요", r"(?:되면|끝나면|하시면|주시면|되시면) 알려주세요"),
        *(r"확인해 주세요", r"실행해 주세요", r"하시겠습니까", r"할까요"),
        r"(?:^|\s)(?:정해|골라|선택해|결정해) ?주세요",
    ),
    "ru": (
        r"\bподтвердите\b",
        r"\bскажите\b",
        r"\bсообщите\b",
        r"\bдайте знать\b",
        r"\bвыберите\b",
        r"\bвыполните\b",
        r"\bзапустите\b",
    ),
    "uk": (r"\bпідтвердіть\b", r"\bскажіть\b", r"\bвиконайте\b"),
    "pt": (
        r"\bme (?:diga|avise|diz)\b",
        # not French "je confirme" (I confirm) nor "ce qui confirme" (it confirms)
        r"(?<!je )(?<!qui )(?<!cela )(?<!ça )\bconfirme\b",
        r"\bvocê (?:prefere|pode)\b",
        r"\bdeseja\b",
        r"\bexecute (?:o|a|os|as|este|esse|esta|essa|isto|isso)\b",  # not English "execute"
        r"\bpreciso que (?:você|vc|tu)\b",  # "I need you to …"
    ),
    "it": (
        r"\bfammi sapere\b",
        r"\bconferma\b",
        r"\bpreferisci\b",
        r"\besegui\b",
        r"\bho bisogno che (?:tu|lei)\b",  # "I need you to …"
    ),
    "vi": (r"\bvui lòng\b", r"\bcho tôi biết\b"),
    "id": (r"\bsilakan\b(?! (?:di)?coba\b)", r"\bberi tahu\b"),  # "silakan dicoba": a handoff
    "tr": (r"\blütfen\b",),
    # not "daj znać, gdyby coś jeszcze było nie tak" (if anything's still wrong: help offered)
    "pl": (r"\bproszę\b", r"\bdaj (?:mi )?znać\b(?!,? (?:gdyby|jeśli|jeżeli) coś)"),
}
