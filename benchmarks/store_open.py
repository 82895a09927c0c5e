"""What opening a project's store costs a cold hook, before and after one home store.

    python benchmarks/store_open.py                 # 400 rounds
    python benchmarks/store_open.py --rounds 2000

Interleaved round by round in one process (machine noise hits both alike), open and close:
- before: as coachloop 68975ce did for a project: its `[store]` config read, then the
  project's own `<project>/.coachloop/coachloop.db`;
- after: `open_store(project=root)`: the store resolved (`resolve`), the home's
  `coachloop.db` opened, one `stat` for an old per-project store to merge, none found.
A warm hook daemon keeps the opened store (`coachloop.agents.projects`): only the first
call of a project, or an in-process hook, pays this.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=400)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="clh-open-"))
    os.environ["COACHLOOP_HOME"] = str(tmp / "home")
    os.environ.pop("COACHLOOP_STORE", None)
    from coachloop.store import open_store, store_config
    from coachloop.store.sqlite import SQLiteStore

    project = tmp / "project"
    (project / ".git").mkdir(parents=True)
    # The project's file under another name: at its own name it would be merged into the
    # home at the first open (the steady state measured here has nothing left to merge).
    old = project / ".coachloop" / "before.db"
    SQLiteStore(old).close()  # both files exist and are migrated before timing
    open_store(project=project).close()
    before, after = [], []
    for _ in range(args.rounds):
        started = time.perf_counter()
        store_config(project)
        SQLiteStore(old).close()
        before.append(time.perf_counter() - started)
        started = time.perf_counter()
        open_store(project=project).close()
        after.append(time.perf_counter() - started)
    b, a = statistics.median(before), statistics.median(after)
    print(f"open + close of a project's store, {args.rounds} rounds interleaved")
    print(f"before (68975ce: config + <project>/.coachloop/coachloop.db)  p50 {b * 1e3:.3f} ms")
    print(f"after  (open_store(project=root): the home store)            p50 {a * 1e3:.3f} ms")
    print(f"after/before {a / b:.2f}")


if __name__ == "__main__":
    main()
