"""Evidence: checkable facts behind an agent's claims (text now; transcript and repo later)."""

from coachloop.evidence.text import extract

__all__ = ["extract"]
