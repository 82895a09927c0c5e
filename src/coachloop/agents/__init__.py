"""Agent integrations: hook adapters (Claude Code, Codex, Gemini), installers, runners."""
