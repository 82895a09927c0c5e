"""The agent's own run or model account failing, as its harness or the agent says it.

Real agents' stops end on these in words other than "API Error": the harness's own lines
(retries, the model overloaded or silent, output or context limits, IDE and SDK error
names) and the agent's own account said casually ("my API credits ran dry", "I'm being
throttled on my end"). Read by the sure-deliver checks (`sure.sure_deliver`) on the
opening of the raw text and on the last line of the prose; matched against lowercased
text like every lexicon.
"""

from __future__ import annotations

from coachloop.judge.rules.lexicon.base import Lexicon

# The agent's own run or account failed (read at the opening of the raw text).
ERROR_WORDS: Lexicon = {
    "any": (
        r"^\W{0,4}(?:sorry, (?:your|the) request failed|request failed|stream disconnected|"
        r"you['’]?ve (?:hit|reached) your (?:usage )?limit|you have (?:hit|reached|exceeded) your|"
        r"usage limit|\d{3} \{\s*\"type\":\s*\"error\"|\{\s*\"type\":\s*\"error\"|"
        r"unexpected api response|an error occurred|something went wrong|[\w ]{0,30} took too long|"
        r"reconnecting\.\.\.|connection (?:lost|closed|error)|server error|error code:? \d{3}|"
        r"credit balance is too low|invalid (?:api key|x-api-key)|authentication_error|"
        r"login required|please (?:log|sign) ?in|not logged in|session expired|quota exceeded|"
        r"resource_exhausted|too many requests|request timed out|prompt is too long|"
        r"throttlingexception|api request failed\b|exceeded retry limit\b|"
        # Claude Code's own lines: "API Error: Connection error.", "Error: Compaction failed:
        # Conversation too long", an MCP server of its own dropping; other harnesses' "the
        # agent stopped unexpectedly", "LLM provider error"
        r"api error: (?:\d{3}\b|connection error|request timed out|overloaded|terminated)|"
        r"(?:error: )?compaction failed\b|(?:error: )?mcp server \S+ disconnected\b|"
        r"(?:the )?agent stopped unexpectedly\b|llm provider error\b|"
        r"(?:the )?model is (?:temporarily |currently )?unavailable\b|loop detected:|stream error:|"
        r"(?:sorry, )?the response was filtered\b|"
        # a cloud agent's own line: "Jules encountered an unexpected error and could not complete"
        r"[\w-]+ encountered an (?:unexpected |internal |unknown )?error and could not\b|"
        r"\d{3} \{\s*\"error\"\s*:|"
        # the harness's own lines: retries, its model overloaded or silent, the account's
        # limit or login, the conversation too long, the request cut off (one pattern with
        # the lines above: one search at the line starts)
        r"retrying in \d+(?:\.\d+)? ?(?:s|sec|secs|seconds?|ms)\b|(?:the )?model (?:is )?"
        r"(?:currently |temporarily )?"
        r"overloaded\b|server disconnected\b|(?:\w+ ){0,2}usage limit (?:reached|exceeded|hit)\b|"
        r"your credit balance is too low\b|conversation (?:is )?too long\b|context low\b|"
        r"request (?:was )?(?:aborted|interrupted|cancell?ed)\b|\[request interrupted\b|"
        r"no response from the model\b|(?:the )?model (?:produced|returned) an invalid\b|"
        r"(?:oauth )?token has expired\b|(?:\d+-hour |weekly |daily )limit reached\b|"
        r"you['’]?re out of (?:extra )?usage\b|(?:provider|tool call|tool) (?:request )?timed out\b|"
        r"the llm did not conform to the edit format\b|an? (?:unknown|internal|unexpected) error "
        r"(?:has )?occurred\b|(?:\d{3} )?insufficient (?:balance|credits?)\b|"
        r"execution failed: \d{3}\b|got status: \d{3}\b|cascade error\b|"
        # Codex CLI's own line when its model request fails ("■ unexpected status 502 Bad Gateway")
        r"(?:error: )?unexpected status \d{3}\b|"
        # the harness's own script failing to start ("execution error: Io(Custom { ... windows
        # sandbox: helper_unknown_error ... })")
        r"(?:script|execution) error: (?:io\(|$)|"
        r"(?:our servers are|the model(?: you['’]?ve selected| you selected)? is|we are|we're) "
        r"experiencing (?:a |an )?(?:unusually )?(?:high|heavy) (?:volume of )?(?:traffic|load|demand)\b|"
        # Copilot's and other IDEs' lines when the model's answer was cut at its limit
        r"sorry, the response hit the length limit\b|(?:the )?(?:model['’]s )?response "
        r"(?:hit|exceeded|reached) the (?:maximum )?(?:output )?(?:length|token) limit\b|"
        r"(?:the )?model['’]s response exceeded the maximum output length\b|"
        # the Vercel AI SDK's error names (OpenCode and others print them as they are)
        r"ai_(?:apicall|retry)error\b|"
        r"(?:we're|we are) having trouble connecting to the model\b|\[response interrupted\b|"
        r"response (?:was )?truncated\b|max(?:imum)? output tokens (?:reached|exceeded)\b|"
        # "an error occurred" / "request failed" as the agent's UI says it in other languages
        r"произошла ошибка|запрос не выполнен|сталася помилка|发生(?:了)?错误|出错了|"
        r"请求失败|エラーが発生しました|リクエストに失敗|오류가 발생했습니다|ocorreu um erro|"
        r"si è verificato un errore|đã xảy ra lỗi|terjadi kesalahan|bir hata oluştu|"
        r"wystąpił błąd)",
        r"\bdid not provide any assistant messages\b",
        # the agent's own model account or connection, said casually: "my API credits ran
        # dry", "I'm being throttled on my end", "Hit my rate limit with the model provider",
        # "my connection to the model keeps dropping", "I ran into the max output tokens",
        # "my model calls are getting overloaded responses", "my session crashed"
        r"\bmy (?:api |model )?credits (?:ran|have run|are|have) (?:dry|out|run out)\b",
        r"\bi'?m being (?:throttled|rate[- ]limited)\b",
        r"\b(?:hit|hitting|reached) my (?:rate|usage) limit\b",
        r"\bmy connection to the model\b",
        r"\bran into (?:the )?max(?:imum)? output tokens\b",
        r"\bmy (?:model|api) calls (?:are|keep) (?:getting|failing|timing out)\b",
        r"\b(?:burned|burnt) through (?:the|my) retries\b",
        r"\bmy retries are (?:all )?used up\b",
        r"\bmy session crashed\b",
        r"\bextension host terminated unexpectedly\b",
        r"api error: (?:request timed out|connection error)\b",
        # "[Output truncated: response exceeded 32000 output token maximum]"
        r"\bresponse exceeded (?:the )?\d+ output token\b",
        # the agent tool's own lines in Chinese: "模型响应异常，本轮对话已中断。点击「重试」继续。"
        r"模型(?:响应|返回|服务)(?:异常|出错|失败)",
        # "模型请求失败，请稍后重试" (the model request failed, retry later): no word boundary
        # between Chinese words, so not in the group above
        r"(?:模型|api ?)请求失败|请稍后(?:再)?重试",
        # the harness's own lines: "[Antwort abgebrochen: maximale Ausgabelänge erreicht
        # (finishReason: MAX_TOKENS)]", OpenCode's "ProviderModelNotFoundError: Model not found"
        r"\bfinish_?reason:? ?max_tokens\b|\bmaximale ausgabelänge\b|\bantwort abgebrochen\b",
        r"\b(?:provider)?modelnotfounderror\b",
        # the sandbox ending the session: "Session terminated: sandbox process was killed
        # (signal 9, memory limit 4096 MiB exceeded)"
        r"\bsession terminated: \w+|\bprocess was killed \(signal \d+",
        # Cursor's own line: "Connection failed. If the problem persists, please check your
        # internet connection or VPN"
        r"\bcheck your internet connection or vpn\b",
        r"(?:本轮)?对话已(?:中断|终止)",
        # the agent tool's own credits: "Cascade says "out of prompt credits"", "I've burned
        # through my credits for today" (a service the task uses says whose: "the key's")
        r"\bout of (?:prompt|flow(?: action)?|premium|fast|user) (?:credits|requests)\b",
        r"\bi(?:'ve| have)? (?:burned|burnt|blown|used up|run out of|ran out of)"
        r" (?:through )?(?:all )?(?:of )?my (?:\w+ )?(?:credits|quota|requests|usage|tokens)\b",
        # "it says the limit resets around 7pm": the agent's own account, as Claude Code says it
        r"\b(?:usage )?limit resets (?:at|around|in|on|tomorrow)\b",
        # its connection failing until the retries ran out: "("Connection error" nach 10
        # Versuchen)", "connection error after 5 retries"
        r"\bconnection (?:error|lost|reset|closed)\W{0,3} (?:after|nach|tras|después de|après|"
        r"após|dopo|po|после|після) \d+ (?:retries|attempts|tries|versuchen|intentos|reintentos|"
        r"tentatives|essais|tentativas|tentativi|próbach|попыт\w*|спроб\w*)",
        r"\b(?:claude|codex|gemini|copilot|cursor|cline|roo) (?:is having trouble|took too long)\b",
        # Cline's (and its fork Roo Code's) own line when the model's tool call lacks a value
        r"\b(?:cline|roo) tried to use [\w-]+ without value for required parameter\b",
        r"\b(?:cline|roo) 尝试使用 \S+?[，,] ?但缺少必需参数",  # the same, localised (zh-CN)
        # Cursor's own line when the model's tool call is malformed
        r"\bmodel provided invalid arguments to [\w ]{1,40}? tool\b",
        # OpenHands' controller stopping a stuck agent
        r"\bagentstuckinlooperror\b",
        r"\bagent state changed to error\b",
    ),
}
