"""Fast regular-expression scanning: the matches of `re`, found by looking only where
a match can start (see `scanner`). Standard library only; nothing compiles at import."""

from coachloop.scan.scanner import Scanner

__all__ = ["Scanner"]
