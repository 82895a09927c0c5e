"""Blockers in the other languages real agents write in (`world.py` has the rest).

A blocker needs both: words for what stands in the way, in the whole text, code
included (`BLOCKER_WORLD`: credentials, permissions, quota, a service down), and the
agent's own words saying it cannot go on or that a person must act (`STUCK_WORLD`).
Each dict is merged into its category of `trouble.py` in `lexicon/__init__.py`.
Scripts without word spaces (CJK) are matched as plain substrings; the rest keep word
boundaries. Written from the languages, not from any benchmark's texts.
"""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

BLOCKER_WORLD: Lexicon = {
    "zh": (
        r"(?:需求|要求|文档)(?:有|存在|之间|互相)?(?:冲突|矛盾)",  # contradictory requirements
        r"凭(?:证|据)",
        r"权限",
        r"拒绝访问",
        r"访问被拒",
        r"密码",
        r"配额",
        r"额度",
        r"许可证",
        r"授权",
        r"认证",
        r"登录",
        r"密钥",
        r"服务不可用",
        r"被(?:阻止|拦截|封禁)",
        r"余额不足|欠费",
    ),
    "ja": (
        r"認証",
        r"権限",
        r"アクセス",
        r"パスワード",
        r"クォータ",
        r"ライセンス",
        r"ログイン",
        r"キー",
        r"トークン",
        r"ブロックされ",
        r"利用できません",
    ),
    "ko": (
        r"자격 증명",
        r"권한",
        r"접근",
        r"액세스",
        r"비밀번호",
        r"할당량",
        r"라이선스",
        r"로그인",
        r"인증",
        r"토큰",
        r"키가",
        r"차단",
    ),
    "ru": (
        r"\bучётн\w* данн\w*",
        r"\bучетн\w* данн\w*",
        r"\bдоступ(?:а|у|ом)?\b",
        r"\bправ(?:а|ами)? доступа\b",
        r"\bпарол\w*",
        r"\bтокен\w*",
        r"\bквот\w*",
        r"\bзаблокирован\w*",
        r"\bлиценз\w*",
        r"\bавториз\w*",
        r"\bаутентифик\w*",
        r"\bключ(?:а|ом)? api\b",
        r"\bсервис недоступен\b",
    ),
    "uk": (
        r"\bоблікові дані\b",
        r"\bдоступ(?:у|ом)?\b",
        r"\bпарол\w*",
        r"\bтокен\w*",
        r"\bквот\w*",
        r"\bзаблоков\w*",
        r"\bліценз\w*",
        r"\bавториз\w*",
    ),
    "pt": (
        r"\bcredenciais\b",
        r"\bpermiss(?:ão|ões)\b",
        r"\bacesso\b",
        r"\bsenha\b",
        r"\bcota\b",
        r"\bbloquead[oa]s?\b",
        r"\blicença\b",
        r"\bautentica\w+",
    ),
    "it": (
        r"\bcredenziali\b",
        r"\bpermess[oi]\b",
        r"\baccesso\b",
        r"\bquota\b",
        r"\bbloccat[oaie]\b",
        r"\blicenza\b",
        r"\bautenticazione\b",
    ),
    "vi": (
        r"\bquyền\b",
        r"\btruy cập\b",
        r"\bmật khẩu\b",
        r"\bthông tin đăng nhập\b",
        r"\bhạn mức\b",
        r"\bbị chặn\b",
        r"\bxác thực\b",
    ),
    "id": (
        r"\bkredensial\b",
        r"\bizin\b",
        r"\bakses\b",
        r"\bkata sandi\b",
        r"\bkuota\b",
        r"\bdiblokir\b",
        r"\bautentikasi\b",
    ),
    "tr": (
        r"\bkimlik bilgileri\b",
        r"\bizin\w*",
        r"\berişim\w*",
        r"\bşifre\w*",
        r"\bparola\w*",
        r"\bkota\w*",
        r"\bengellendi\b",
        r"\blisans\w*",
    ),
    "nl": (
        r"\b(?:inloggegevens|rechten|toegang|wachtwoord|quota|geblokkeerd|onderhoud|licentie)\b",
        r"\bniet bereikbaar\b",
    ),
    "pl": (
        r"\bdane uwierzytelniające\b",
        r"\buprawnie\w+",
        r"\bdostęp\w*",
        r"\bhasł\w+",
        r"\bzablokowan\w+",
        r"\blicencj\w+",
        r"\buwierzytelni\w+",
        r"\bprzerw\w* techniczn\w*",
        r"\bniedostępn\w*",
    ),
}

# `trouble.RESUMES_ONCE` in more languages: "Vou continuar depois que liberarem meu acesso",
# "API anahtarını yenilediğinizde devam edeceğim" (when you renew …, I'll go on), "Ik ga
# verder zodra …"
RESUMES_ONCE_WORLD: Lexicon = {
    "pt": (r"\b(?:vou continuar|continuo|sigo) (?:depois que|quando|assim que)\b",),
    "tr": (
        r"\w+(?:diğinizde|dığınızda|düğünüzde|duğunuzda|diğinde|dığında|düğünde|duğunda)"
        r"[^.\n]{0,60}\b\w+(?:eceğim|acağım)\b",
    ),
    "nl": (r"\bik ga (?:verder|door) zodra\b",),
}

STUCK_WORLD: Lexicon = {
    "zh": (
        r"我(?:无法|不能|没办法|没有权限|没有访问)",
        r"没法(?:继续|联调|测试|访问|连接|完成|部署)",
        r"无法(?:继续|访问|连接|完成|推送|部署|安装|登录)",
        r"需要(?:你|您|管理员)",
        r"需要[^。\n]{0,6}(?:管理员|负责人)",  # "需要主账号管理员…" (the main account's admin)
        r"(?:你|您)(?:需要|必须)",
        r"手动",
        r"我先停下来",  # "I stop here first"
    ),
    "ja": (
        r"できません",
        r"できない",
        r"権限がありません",
        r"手動で",
        r"管理者",
        r"(?:あなた|ご自身)(?:が|で)",
        r"(?:オーナー|管理者|所有者)(?:が|に)[^。\n]{0,40}必要",
    ),
    "ko": (r"할 수 없", r"수 없습니다", r"권한이 없", r"직접", r"관리자"),
    "ru": (
        r"\bне (?:могу|удалось|удаётся|удается|получается|смог(?:ла)?)\b",
        r"\bнет (?:доступа|прав|возможности)\b",
        r"\bвам (?:нужно|необходимо|придётся|придется|надо)\b",
        r"\bвручную\b",
        r"\bтолько (?:с|из|в|через) (?:вашего|твоего|вашей)\b",
        r"\bадминистратор\w*",
        r"\bбез (?:доступа|прав|токена|ключа)\b",
    ),
    "uk": (
        r"\bне (?:можу|вдалося|вдається)\b",
        r"\bнемає (?:доступу|прав)\b",
        r"\bвам (?:потрібно|треба|доведеться)\b",
        r"\bвручну\b",
        r"\b(?:тільки|лише) (?:з|у|в|через) (?:вашого|твого|вашому|вашої)\b",
        r"\bадміністратор\w*",
    ),
    "pt": (
        r"\bnão (?:consigo|posso|foi possível|tenho (?:acesso|permissão))\b",
        r"\bvocê (?:precisa|precisará|terá que|deve)\b",
        r"\bmanualmente\b",
        r"\bsem (?:acesso|permissão)\b",
        r"\balguém (?:com|precisa)\b",
        r"\bé preciso (?:esperar|aguardar)\b",
        *RESUMES_ONCE_WORLD["pt"],
    ),
    "it": (
        r"\bnon (?:riesco|posso|è possibile|ho (?:accesso|i permessi))\b",
        r"\bdevi\b",
        r"\bdovrai\b",
        r"\bmanualmente\b",
        r"\bsenza (?:accesso|permessi)\b",
        r"\bqualcuno (?:con|deve)\b",
        # "appena fatto, riprendo dal punto 4"
        r"\bappena (?:fatto|\w+to),? riprendo\b|\briprendo (?:appena|quando)\b",
    ),
    "vi": (
        r"\bkhông thể\b",
        r"\btôi không có quyền\b",
        r"\bbạn (?:cần|phải)\b",
        r"\bthủ công\b",
        r"\bquản trị viên\b",
    ),
    "id": (
        r"\btidak (?:bisa|dapat)\b",
        r"\bsaya tidak (?:punya|memiliki) akses\b",
        r"\banda (?:perlu|harus)\b",
        r"\bsecara manual\b",
    ),
    "tr": (
        r"\w+(?:amıyorum|emiyorum)\b",
        r"\berişimim yok\b",
        r"\b(?:yalnızca|sadece) (?:\w+ ){0,2}(?:hesap sahibi|yönetici\w*)\b",  # only the owner
        r"\bizni(?:m)? yok\b",
        r"\bmanuel olarak\b",
        r"\byönetici\w*",
        *RESUMES_ONCE_WORLD["tr"],
    ),
    "pl": (
        r"\bnie (?:mogę|mam dostępu|mam uprawnień|udało się)\b",
        r"\bmusisz\b",
        r"\bbędziesz musiał\w*",
        r"\bręcznie\b",
        r"\bnic więcej nie (?:zrobię|mogę zrobić)\b",
        r"\btrzeba (?:poczekać|zaczekać)\b",
        r"\badministrator\w*",
    ),
    "nl": (
        r"\bik (?:kan (?:niet|geen)|heb geen (?:toegang|rechten))\b",
        r"\bje moet\b",
        r"\bhandmatig\b",
        *RESUMES_ONCE_WORLD["nl"],
    ),
}


# "I can't go on until ..." (merged into `cues.BLOCKED_SURE`, a sure blocker)
BLOCKED_SURE_WORLD: Lexicon = {
    "tr": (
        r"\bgelene kadar (?:\w+ )?(?:çalıştıramam|devam edemem|ilerleyemem)\b",
        r"\b(?:benim )?(?:oraya |panele |hesaba )?erişimim yok\b",  # "I have no access"
    ),
    # Thai "ผมเข้าไม่ได้" (I can't get in: an account only its owner opens)
    "th": (r"(?:ผม|ฉัน|ดิฉัน)เข้า(?:ถึง)?ไม่ได้",),
    # Korean "제가 접근 권한이 없어서" (I have no access, so ...); Japanese "オーナーに … 付与して
    # もらう必要があります" (the owner has to grant it)
    "ko": (r"제가 (?:\S+ ){0,3}(?:접근 )?권한이 없",),
    "ja": (r"(?:オーナー|管理者|所有者)に[^。\n]{0,20}?(?:もらう|いただく)必要があります",),
    # Malay: "Saya tak ada akses ke akaun tu" (I have no access to that account)
    "ms": (r"\bsaya (?:tak|tiada|tidak) (?:ada |punya )?akses\b",),
    # "I can't ... until"; "an admin has to ..." (only that person can act)
    "pt": (
        r"\bnão (?:consigo|posso) (?:\w+ ){1,6}até que\b",
        r"\bé preciso que (?:o|um) (?:administrador|admin|proprietário|responsável)\b",
    ),
    "it": (
        r"\bnon posso (?:\w+ ){1,6}finché\b",
        r"\bserve che l['’](?:amministratore|admin|proprietario|responsabile)\b",
    ),
    "ru": (
        r"\bне могу (?:\w+ ){1,6}пока\b",
        r"\bограничение (?:вашего|твоего) аккаунт\w*",
        r"\bможет только (?:владелец|админ\w*|администратор\w*)\b",
    ),
    "uk": (
        r"\bне можу (?:\w+ ){1,6}поки\b",
        r"\bобмеження (?:вашого|твого) акаунт\w*",  # "a limit of your account, not the code"
        r"\bможе (?:лише|тільки) (?:власник|адмін\w*|адміністратор\w*)\b",
    ),
}
