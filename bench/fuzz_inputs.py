"""The fuzzing of every input the library and the CLI read (issue 27), run far longer than in the
test suite: the same properties and strategies as ``tests/core/test_fuzz_inputs.py`` (layouts in
both formats of every game and option set, move texts, non-text arguments, saves, options), in
rounds of fresh random inputs (a new seed each round), for a number of seconds or of rounds.

It prints, for each kind of input, the inputs tried, how many were accepted, the failures (a
property broken: an input refused with a raw Python error or a long message, a refused input
that changed the game, an accepted layout or save that does not round-trip or whose legal
moves break the rules), and the time. A failure prints its first lines, and the run goes on.
Shrinking is off (a failure is shown as found). Run:
``.venv/bin/python bench/fuzz_inputs.py [--seconds 300] [--rounds N] [--examples 500] [--kind layouts]``
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

from hypothesis import Phase, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests package, for its strategies

from tests.core.test_fuzz_inputs import CHECKED, FUZZ, PROPERTIES, fuzzed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300.0, help="stop starting rounds after this long")
    parser.add_argument("--rounds", type=int, default=None, help="stop after this many rounds (default: no limit)")
    parser.add_argument("--examples", type=int, default=500, help="inputs of each kind a round tries")
    parser.add_argument("--kind", action="append", choices=list(PROPERTIES), help="only these kinds (repeatable)")
    parser.add_argument("--seed", type=int, default=0, help="the first round's seed")
    args = parser.parse_args()
    kinds = args.kind or list(PROPERTIES)
    run = settings(FUZZ, max_examples=args.examples, derandomize=False, phases=[Phase.explicit, Phase.generate])
    totals = {kind: {"inputs": 0, "accepted": 0, "failures": 0, "seconds": 0.0} for kind in kinds}
    began = time.perf_counter()
    rounds = 0
    while (args.rounds is None or rounds < args.rounds) and time.perf_counter() - began < args.seconds:
        for kind in kinds:
            CHECKED.update(inputs=0, accepted=0)
            start = time.perf_counter()
            try:
                seed(args.seed + rounds)(fuzzed(kind, run))()
            except Exception as err:  # every failure is counted and shown, and the run goes on
                totals[kind]["failures"] += 1
                print(f"FAILURE ({kind}, seed {args.seed + rounds}): {type(err).__name__}")
                print("".join(traceback.format_exception_only(err))[:2000])
            totals[kind]["inputs"] += CHECKED["inputs"]
            totals[kind]["accepted"] += CHECKED["accepted"]
            totals[kind]["seconds"] += time.perf_counter() - start
        rounds += 1
    elapsed = time.perf_counter() - began
    print(f"{rounds} rounds of {args.examples} inputs of each kind, {elapsed:.0f} s")
    print(f"{'kind':20} {'inputs':>9} {'accepted':>9} {'failures':>9} {'seconds':>8}")
    for kind, t in totals.items():
        print(f"{kind:20} {t['inputs']:9.0f} {t['accepted']:9.0f} {t['failures']:9.0f} {t['seconds']:8.1f}")
    inputs = sum(t["inputs"] for t in totals.values())
    failures = sum(t["failures"] for t in totals.values())
    print(f"{'all':20} {inputs:9.0f} {'':9} {failures:9.0f} {elapsed:8.1f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
