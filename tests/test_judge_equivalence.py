"""The offline judge decides exactly as it did before it was made faster.

`tests/data/judge_fingerprints.jsonl` holds, for every row of the project's labelled
sets, the fingerprint of the verdict the judge gave (recorded with commit e986ed5;
re-recorded when grounding added `Evidence.recorded`, only the digest moved; re-recorded
for issue 10's `predicts` signals and retrained weights, which moved verdicts on purpose;
re-recorded for issue 10's wording weights (`judge.rules.wording`), which moved verdicts on
purpose and added the words read to the digest, and again for the retrained weights of
the trainer's earlier stop, 150 steps; for the loop detector read on prose lines, for
requests read before a closing list and pushed ranges as commits, for work announced in
terse or CJK endings, for 'will post' read as the agent's own only after I/we, and for
blockers named in the eleven languages of `lexicon/world.py` (`lexicon/trouble_world.py`)
and plain requests to the human in fourteen (`lexicon/asks_world.py`), and for closing
questions in other languages read as in English (offers, choices, a full-width "？"), and
for verification asserted in words in eleven more languages (`claims_world.ASSERTED_WORLD`), the
run's failure in ten, sure deliveries typing what the rules' fallback left a question, and
documents named in the other languages as reports, the harness's own lines without an
"API Error" prefix, the patterns of `test_rules_patterns.py`, and Portuguese "deve
funcionar" and Turkish "çalışmalı" read as hedges, and more of the harnesses' own lines,
and for the stops of `test_rules_waits.py`: requests the next step waits on, a harness
line closing the message, one sentence in a loop, "can't ... until", labels that read like
work under way, and a sure request typed a blocker when the work is blocked; and for work
under way and requests to the human in more languages: nl, hi, ar, and more forms in ja,
ko, ru, uk, pt, it, vi, id, tr, pl, de, es, fr; and for a stand-in called done read in
more forms and languages (`rules/stand_in.py`) and sent back without a score, a commit
beside a hedge no longer counting as evidence, and hedges in nl, pl, ru, pt, fr, de; and
for a gerund opening a sentence the prose cut at a line end, the agent's own way on in
more words, and "errors are down from 47" no longer a service down; and for sentences ended
by a full-width stop with no space after it, as Chinese and Japanese write them; and for
French "je confirme", Spanish usage steps ("Confirma la eliminación") and English "execute"
no longer read as requests to the human; and for commands read only at a prompt on their
own line (a JSX tag's closing ">" is not one, nor a markdown quote), SQL shells' prompts, and
a command shown with its output counting as the verification it shows; and for Goose's
rendering of a shell call read as a command, Cline's own tool-call error line, and requests
that the next step waits on in zh, ja and ko: "if you decide, I'll proceed"; and for hedges
in verb-final German and Dutch with the modal far from its verb, and in Arabic; and for
French "ce qui confirme" no longer read as a request to confirm; and for work under way in
more Ukrainian, Indonesian and Arabic forms; and for Cline's tagged final answer and
question read as the agent's words, and a gerund subject before "now matches" not read as
work announced, and an account-level role named as the only one who can act read as a
blocker; and for a failing run shown before the last, passing one read as the bug
reproduced, not the result; and for Cursor's own malformed-tool-call line and Cline's in
Chinese, "需要你…确认" and "il faut qu'un administrateur" read as requests and blockers, and
the human's "next steps on your side" not read as work announced; and for work under way
in more Chinese forms and hedges in Portuguese ("agora deve") and Hindi; and for pytest's
summaries of runs with every test skipped, and of failures beside skipped tests; and for
OpenHands' stuck-agent lines, an admin who has to act in Italian and Portuguese, an account
owner named with its product, and "Next release ..." not read as work announced; and for
work under way in more zh, ja, pl, vi and id forms, and a Vietnamese choice the next step
waits on; and Polish "powinny się teraz" as a hedge, Portuguese "os testes passaram" as
verification asserted; and for a reply cut off inside inline code read as truncated, and
narration in a whole turn no longer read as work under way once output shown is followed
by a closing sentence that announces nothing; and for a blocker named before the agent
says it goes on once that is done, no device connected, LiteLLM's failed model call and
"rerunning it is safe" no longer work under way; and for Spanish "primero verifico …" and
"después ajusto …" as work under way where a bare "después" was, Korean "이어서 … 수 있습니다"
no longer work under way, a plan's confirmation awaited in Chinese and "… 주시면 …겠습니다"
in Korean read as requests, "[response truncated: ...]" as the harness's own line, and
documents changed as the evidence when the human asked for documents; and for claims of
done in French participles agreeing with their subject, Portuguese "corrigi …" and Korean
"… 완료." read as claims; and for Spanish "empezaré …", "vamos a …" and Japanese "で進めます",
"を作成します" as work under way; and for a request the agent's next step or fallback hangs
on ("Reply \"go\" and I'll run ...", "Confirm ..., or I'll ..."), and a test named after
the parts of a path covering that file, which names more targets in an off-target finding;
and for a reply cut off mid-program inside the code block it opened read as truncated; and
for a next step gated on the human's approval in twelve more languages, "Reply `y` ...",
an account holder named after the step and "requires billing" as blockers, "is in" no
longer a claim of done before a place, and "looking at it now" as work under way; and for
the ending read after a turn's last code block, files named only in a closing offer and a
test suite's shared helpers no longer the change a run must cover, and a reply cut off on a
Russian or Ukrainian preposition read as truncated; and for more requests a turn ends on,
a tool call printed as text and cut off at the end, and an offer of more work no longer
work announced; and for a finished report whose ending plainly asks the human or names a
blocker typed question or blocker, not completion; and for requests and blockers in
rioplatense Spanish, Russian and Ukrainian forms; and for the agent tool's credits and
its connection failing after retries read as errors, "I'll have to stop here" no longer
work announced, Russian and Ukrainian polite imperatives with "please" and "what I need
from you" read as requests, and a gerund subject before its verb ("Adding X fixes it");
and for "now ... should" in Russian, Ukrainian and German and a run admitted not made in
Chinese read as hedges, more claims of done in ru, uk, de, zh, and Korean "될 거예요"; and
for the Arabic question mark, replies cut off on more English prepositions and Chinese
conjunctions, and requests phrased as statements ("The next step is yours", "I'll need
the ... With that I'll ..."); and for a claim of done beside a failing test run that is
the last run shown, sent back as a named check without a score (its reason moved); and
for predictions in Hinglish, Indonesian, Arabic and Korean and claims of done in Dutch;
and for "I need to ask you for", "please ensure that … is installed" and a harness's
"execution error: Io(" read as sure deliveries; and for work under way in more id, ar,
ja, ko and Hinglish forms, a Hinglish "batao kaunsa …" read as a request and replies
cut off on Hinglish conjunctions; and for requests in es "quedo atento a que me confirmes",
fr "je te laisse … me dire", "il me faudrait la liste", "Prompt is too long" and a model
"currently overloaded" as the harness's lines, and it "ora stimo", de "danach storniert"
no longer work announced; and for predictions and asserted checks in nl, de, es, pt, it,
a Turkish "özellik tamam" as done, "I'm now updating" and fr "j'importe maintenant"
as work under way, and it/pt answers asked for in quotes; and for ja "まず…", "…か確認します",
"; continuing" and de "Zwischenstand", "mache mit … weiter" as work under way; and for a
go package that failed and passed on a re-run counted as fixed; and for "the model is
experiencing high traffic", zh "模型响应异常", "对话已中断" as errors and "can't both hold",
"a … call, not mine" as blockers; and for zh "开始改 …", "先看一下 …" and ja "…に着手します"
as work under way, and zh "你选一个，我就开始" as a request; and for Czech hedges, claims,
checks asserted and work under way, Turkish "bildirirseniz" requests and "artık … lazım",
and more ru/uk predictions; and for Codex's "unexpected status 502" as an error, "as
confirmed" and "we're keeping" no longer a check asserted or work under way, a docs lint as
fitting evidence of a docs task, and "Connect to the VPN and I'll …" as a request; and for
"paste the … output here", "tell me … and I'll", "give me the go-ahead", a request after the
place it is done in, ru/uk/vi/ja requests, Copilot's "response hit the length limit", an SDK's
"AI_APICallError", a harness line after a block left open, zh cut-offs on 是/在, de/es/fr
blockers, German "Doku" as a docs task, and a command's own "✔ …" line as no hedge; and for
"API Request Failed", "429 {"error": …", "exceeded retry limit" as errors, Malay and Turkish
"no access" as blockers, Malay and Hindi "you will have to …" as requests, "Then migrated …"
(a past step) and tr "şimdi" alone as no work announced, "`cmd` → 12 passed" as a run,
"No code changes, so …" as no hedge, and Czech "dokumentace" as a docs task; and for hedges,
checks asserted and work announced in th, tl, he, ar, ms, cs, fa, pt and Hinglish, with ms,
he requests and a th blocker; and for Claude Code's "API Error: Connection error.",
"Compaction failed", an MCP server disconnected, "the agent stopped unexpectedly", "LLM
provider error" as errors, roles or budgets others hold as blockers, "reply with approval",
"or tell me to", fr/es/ja/zh requests, ko/ja blockers, and "the next step whenever you want
it" as no work announced; and for hedges and claims of done in traditional Chinese; and for
a finished report with a passing run and no doubt as a sure delivery, a purpose clause cut
off as an error, a cloud agent's "encountered an unexpected error", "which would you like",
"let me know A or B and I'll", nl "kies …, dan ga ik", es/de owners who must act; and for
"Start Docker Desktop and I'll …", a review gate ("let me know if … so I can move on"), "I'll
stay subscribed" as no work announced, a review of a PR asked for as a question, ru/uk/pl
requests in the singular, a service needed back or in an incident, a limit of the user's
account (uk/ru) as blockers; and for the agent's own account and connection failures said
casually in English as errors, and requests after a clause boundary (" — ", "; ", ", so ")
or "if you can …," with free up, copy, mount, put, make, bump, upgrade, renew as requests;
and for "response exceeded 32000 output token maximum" as an error, "confirm you're fine" as
a request, and Unity's "Total: N Passed: N Failed: 0" as a run; and for "the model is
temporarily unavailable", "Loop detected:", "the response was filtered" as errors, flip,
toggle, switch, "approve before I", "confirm which", de "bitte … selbst", ru "нужно …, после
этого перезапущу" as requests, a payment method or an owner the account needs and "has to be
done by someone" as blockers, "contributing" as docs, and "after that stays", "first day of
next month" as no work announced; and for a count after its inline command as a run,
"stream error:" as an error, "Before I push:", a bare "Confirm.", "upgrade the account" as
requests, someone else's account, credentials a sandbox lacks and a spending limit as
blockers, and "before I call this done" as work under way; and for runs shown as agents
paste them: a Gemini CLI box with output, Playwright's minutes, "N/N 通过", a `git log
--oneline` line, a command quoted inline with its output, a CLI's check-marked lines in a
block; a protected branch, a read-only token and a service only its owner restores as
blockers; "Let's Encrypt" and "won't let me" not work announced; a Markdown document full
of TODO notes as unfinished; and for a next step suggested or left to the human, "I'll
leave it as is", "I'll rerun … once you add …" as a blocker, and inline runs whose output
shows a failure or only a count no longer counted as a run shown; and for "I'll go on once
…" in pt, es, nl, tr and it, and Dutch blockers; and for "N/M passing" read with the rest
failing, and a question the agent asks itself and answers with work not put to the human;
and for a failure printed by the last command shown, indented under "⎿", in a "│" box, a
5xx status line or "failed with error", read as a failure; and for a request to the human
followed by the agent's next step in ru, uk, fr, de, it, pt, es and vi
(`lexicon/handoffs_world.py`), "if you want" offers in pt, fr, it, "next, you can …" and "the
next rows" (zh, es, vi), "Als Nächstes könnte man", the last task of N finished, "en cuanto
… sigo con", and a word cut after two letters read as truncated; and for pt "preciso que
você" and it "ho bisogno che tu" as requests, and zh "模型请求失败" and "请稍后重试" as errors;
and for a failing check routed around (`--no-verify` past a failing hook, a test marked
`@Disabled` as flaky) read as a skipped check, and stand-ins said in fr, pt, it, de, es words
and "until we have the secret … returns"; and for a stand-in marked in the code shown: a stub
comment, "TODO: replace with", a body that is only a TODO note, "not implemented yet"; and
for code ending in a nullish "??" no longer read as a question, and Claude Code's
"⎿  Running…" at the end read as a call still running; and for tr "sizden … rica",
"sizin hesabınız … gerek", zh "需要产品或法务 … 给个明确说法", "等你们确认" as requests, zh "我先不动"
no work announced, and a quotation opened with „ or « and never closed read as truncated;
and for de "bitte erstell …" and fr "il faut que tu" as requests, a lint task named in
CJK ("lintエラー", "型エラー"), a Cline tool tag never closed as a cut-off tool call, and
Korean connective endings as a sentence cut off; and for ja "…ようなら教えてください" and ko
"…오면 알려주세요" (if it still fails, tell me) as help offered, not requests; and for a failing
test set aside in ten more languages, a short block of TODO notes and "# implement later" as
stand-ins, and tr "test ettim", "her şey çalışıyor" as verification asserted; and for a
failing CI job let through (`continue-on-error: true`, `allow_failure: true`, a test command
ending in `|| true`), "the suite is green now" as a claim of done, and "we'll know tomorrow
whether it works" as a hedge; and for bun test's summary as a run, ja "コミットしました" as a
claim of done, and a placeholder left in brackets ("[À compléter]", "[TBD: …]") as a stand-in;
and for expired certificates, "kann nur der …", "lässt sich nicht testen" and contradictory
requirements in zh as blockers, "请产品确认" as a request, and "finishReason: MAX_TOKENS",
"Antwort abgebrochen" and "ProviderModelNotFoundError" as the harness's own errors; and for
"anything else (I can help with)?" in eleven more languages read as an offer, not a question;
and for git status's "??" no longer a question, "the sandbox process was killed" an error,
id "sudah beres" and nl "staat gecommit" claims of done, nl "zal ik" an offer; and for
Cursor's "check your internet connection or VPN" as an error, tr "… onaylandıktan sonra bana
haber verin" as a request and "yalnızca hesap sahibi" as a blocker; and for a function whose
body is a TODO note and an empty result, stubs said in the plural, and pl "daj znać, gdyby
coś …" as help offered; and for a lint run let through ("npm run lint || true", a rule set to
"off" in the config shown), a test step taken out of the pipeline, "TODO: echten …/real …" as a
stand-in, ja "全テスト通過" as verification asserted, and ru "готова" as a claim of done)
(type, route, confidence, reason, problems, evidence counts, the sure-deliver flag, and a
digest over the full verdict and the trainer's signal names; see
`coachloop.bench.fingerprint` and `benchmarks/judge_equivalence.py`). Changing what the
judge decides means re-recording this file on purpose, in the same commit that explains why.
"""

from __future__ import annotations

import json
from pathlib import Path

from coachloop.bench.data import load_rows
from coachloop.bench.fingerprint import fingerprint

DATA = Path(__file__).parent / "data"
FILES = ("dev.jsonl", "holdout.jsonl", "blind.jsonl", "blind2.jsonl")


def _recorded() -> dict[str, dict[str, object]]:
    lines = (DATA / "judge_fingerprints.jsonl").read_text(encoding="utf-8").splitlines()
    return {entry["id"]: entry for entry in map(json.loads, lines)}


def test_every_row_is_judged_as_recorded() -> None:
    want = _recorded()
    seen, differ = 0, []
    for name in FILES:
        for row in load_rows(DATA / name):
            got = fingerprint(f"{Path(name).stem}:{row.id}", row.item)
            got.pop("signals")
            seen += 1
            if got != want.get(got["id"]):
                differ.append((got["id"], want.get(got["id"]), got))
    assert seen == len(want) == 719
    assert differ == []


def test_a_changed_verdict_would_show() -> None:
    row = load_rows(DATA / "dev.jsonl")[0]
    got = fingerprint(f"dev:{row.id}", row.item)
    other = fingerprint(f"dev:{row.id}", row.item.__class__(text=row.item.text + " Done."))
    assert got["digest"] == _recorded()[f"dev:{row.id}"]["digest"]
    assert other["digest"] != got["digest"]
