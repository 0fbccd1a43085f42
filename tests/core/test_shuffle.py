"""Deal numbers: our shuffle is fixed forever; Java's Random is exact."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.core.errors import DealNumberError
from cardtable.core.shuffle import MAX_DEAL, JavaRandom, SplitMix64, check_deal, shuffled


def test_splitmix64_reference_outputs() -> None:
    # Published outputs of SplitMix64 for seed 0 (Vigna's reference implementation).
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_java_random_reference_outputs() -> None:
    # new Random(0).nextInt() == -1155484576; new Random(42).nextInt(10) == 0.
    assert JavaRandom(0).next_bits(32) == -1155484576
    assert JavaRandom(42).next_int(10) == 0
    r = JavaRandom(0)
    assert [r.next_int(100) for _ in range(5)] == [60, 48, 29, 47, 15]


def test_shuffle_is_pinned() -> None:
    # These values are part of the file format: they must never change.
    assert shuffled(list(range(10)), 0) == [6, 3, 2, 9, 8, 1, 4, 7, 0, 5]
    assert shuffled(list(range(10)), MAX_DEAL) != shuffled(list(range(10)), 0)


@given(st.integers(min_value=0, max_value=MAX_DEAL))
def test_shuffle_is_a_permutation(deal: int) -> None:
    assert sorted(shuffled(list(range(52)), deal)) == list(range(52))


def test_shuffle_does_not_depend_on_hash_seed() -> None:
    code = "from cardtable.core.shuffle import shuffled; print(shuffled(list(range(52)), 99))"
    outs = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True).stdout)
    assert len(outs) == 1 and outs != {""}


@pytest.mark.parametrize("bad", [-1, MAX_DEAL + 1, 1.5, "3", True, None])
def test_bad_deal_numbers(bad: object) -> None:
    with pytest.raises(DealNumberError):
        check_deal(bad)
