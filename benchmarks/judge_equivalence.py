"""Record or check the offline judge's verdict fingerprints, on any source tree.

    python benchmarks/judge_equivalence.py record OUT.jsonl FILE.jsonl... [--tree SRC] [--mutate N]
    python benchmarks/judge_equivalence.py check  REF.jsonl FILE.jsonl... [--tree SRC] [--mutate N]

The project's own fixture (tests/data/judge_fingerprints.jsonl, checked by
tests/test_judge_equivalence.py) was first recorded with the judge of commit e986ed5 and
again whenever verdicts moved on purpose (the test's docstring lists when; last 6b5c6f3):

    git archive REV src | tar -x -C /tmp/ref
    python benchmarks/judge_equivalence.py record tests/data/judge_fingerprints.jsonl \
        tests/data/{dev,holdout,blind,blind2}.jsonl --tree /tmp/ref/src --compact

FILE.jsonl are labelled sets (`coachloop.bench.data`): a fingerprint file is not one, so
a glob such as tests/data/*.jsonl must leave judge_fingerprints.jsonl out.

`record` writes one fingerprint per row (`coachloop.bench.fingerprint`: no message text,
only the verdict's fields, signal names and a digest); `check` recomputes them and lists
every row that differs (exit 1 when any does). `--tree` judges with another source tree
(for example an older commit unpacked by `git archive`), so fingerprints recorded
before a change can be checked after it. `--mutate N` adds N variants per row built
deterministically from the texts (slices, joins, case, reordered paragraphs, swapped
prompts): more inputs on which two judges must agree, still nothing stored but digests.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

FINGERPRINT = Path(__file__).resolve().parents[1] / "src/coachloop/bench/fingerprint.py"


def _load_fingerprint() -> Any:
    spec = importlib.util.spec_from_file_location("_fingerprint", FINGERPRINT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _variants(rows: list[Any], per_row: int, seed: int = 7) -> list[tuple[str, Any]]:
    rng = random.Random(seed)
    texts = [r.item.text for r in rows]
    prompts = [r.item.prompt for r in rows if r.item.prompt]
    out: list[tuple[str, Any]] = []
    for row in rows:
        text = row.item.text
        for k in range(per_row):
            kind = k % 8
            if kind == 0:
                new = text[-rng.randint(20, 600) :]
            elif kind == 1:
                new = text[: rng.randint(20, 600)]
            elif kind == 2:
                new = text + "\n\n" + rng.choice(texts)
            elif kind == 3:
                new = "\n\n".join(reversed(text.split("\n\n")))
            elif kind == 4:
                new = text.upper() if k % 16 == 4 else text.lower()
            elif kind == 5:
                a = rng.randint(0, max(len(text) - 1, 0))
                new = text[a : a + rng.randint(10, 400)]
            elif kind == 6:
                new = rng.choice(texts)[:200] + " " + text
            else:
                new = text.replace(". ", ".\n", rng.randint(1, 5))
            item = replace(row.item, text=new)
            if prompts and rng.random() < 0.3:
                item = replace(item, prompt=rng.choice(prompts))
            out.append((f"{row.id}#{k}", item))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["record", "check"])
    parser.add_argument("fingerprints", type=Path)
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--tree", help="the source tree (a src/ directory) to judge with")
    parser.add_argument("--mutate", type=int, default=0, help="variants per row")
    parser.add_argument(
        "--compact",
        action="store_true",
        help="record without signal names (the digest covers them)",
    )
    args = parser.parse_args()
    if args.tree:
        sys.path.insert(0, str(Path(args.tree).resolve()))
    from coachloop.bench.data import load_rows

    fp = _load_fingerprint()
    items: list[tuple[str, Any]] = []
    for path in args.files:
        rows = load_rows(path)
        items += [(f"{path.stem}:{r.id}", r.item) for r in rows]
        items += [(f"{path.stem}:{i}", it) for i, it in _variants(rows, args.mutate)]
    got = [fp.fingerprint(row_id, item) for row_id, item in items]
    if args.compact:
        got = [{k: v for k, v in g.items() if k != "signals"} for g in got]
    if args.mode == "record":
        with args.fingerprints.open("w", encoding="utf-8") as out:
            for entry in got:
                out.write(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")
        print(f"recorded {len(got)} fingerprints in {args.fingerprints}")
        return 0
    lines = args.fingerprints.read_text(encoding="utf-8").splitlines()
    want = {e["id"]: e for e in map(json.loads, lines)}
    if not any("signals" in e for e in want.values()):
        got = [{k: v for k, v in g.items() if k != "signals"} for g in got]
    diffs = [g for g in got if want.get(g["id"]) != g]
    missing = set(want) - {g["id"] for g in got}
    for g in diffs[:20]:
        w = want.get(g["id"], {})
        keys = sorted(k for k in g if g.get(k) != w.get(k))
        print(f"DIFF {g['id']}: " + ", ".join(f"{k}: {w.get(k)!r} -> {g[k]!r}" for k in keys))
    print(f"checked {len(got)} rows: {len(diffs)} differ, {len(missing)} missing")
    return 1 if diffs or missing else 0


if __name__ == "__main__":
    sys.exit(main())
