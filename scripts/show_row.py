"""Print one dataset row of a JSONL export readably, around its first replaced span.

    python scripts/show_row.py output/demo/jsonl/train-00000-of-00001.jsonl [N]
"""

from __future__ import annotations

import json
import sys


def main(path: str, n: int = 0) -> None:
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i == n:
                break
        else:
            raise SystemExit(f"{path}: fewer than {n + 1} rows")
    r = json.loads(line)
    span = r["modified_spans"][0]
    lo, hi = max(0, span["start"] - 70), span["end"] + 70
    print(f"  id:               {r['id']} ({r['source']}, {r['split']})")
    print(f"  question:         {r['question']}")
    print(f"  original answer:  {r['original_answer']!r} -> faithful answer: "
          f"{r['faithful_answer']!r} ({r['entity_type']}, {r['match_strategy']} match, "
          f"{r['num_replacements']} replaced)")
    print(f"  modified context: ...{r['modified_context'][lo:hi]}...")
    print(f"  fields:           {', '.join(r)}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
