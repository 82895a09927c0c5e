"""The chat side: deliveries to the human, and the human's replies back to the agents.

`coachloop bridge` is the one long-lived process per bot token (findings §6): hooks only
write the store's outbox, and the bridge sends it (`outbox.OutboxPump` through
`telegram.TelegramChannel`, or `console` without a token) and routes the chat's messages
back to sessions (`handlers`, `routing`, `turns`). Modules:

- `config`: environment and config file; `security`: allow-list, token redaction;
- `split` / `render`: Telegram HTML parts under 4096 characters, documents for long text;
- `ledger`: the bridge's own SQLite (send progress, message ids -> sessions);
- `ratelimit`: per-chat spacing and 429 handling for python-telegram-bot;
- `agent`: the `ChatAgent` seam to the headless runner.

Only `telegram`, `handlers` and `ratelimit` import python-telegram-bot (the `telegram`
extra); the rest, and the console channel, need nothing beyond coachloop itself.
"""
