"""shabench's batches (shabench/batches.py), one source for every batch row, and the Python rows that
run them beside StringZilla (shabench/python_batches.py): what each batch holds, and that every row's
digests are checked before it is timed."""

import hashlib
import importlib.util

import pytest

from shabench import python_batches, stringzilla
from shabench.batches import C_BATCHES, MIXED_MAX, MIXED_SEED, Batch, pattern

SMALL = [Batch("SMALL_5x100b", 5, 100), Batch("SMALL_33xMIXED", 33)]


@pytest.mark.core
def test_a_fixed_batch_is_its_count_of_one_length_cut_from_the_251_byte_cycle():
    batch = Batch("B", 7, 65)
    assert batch.lengths == (65,) * 7 and batch.total == 7 * 65
    assert list(batch.offsets) == list(range(0, 8 * 65, 65))
    assert batch.messages() == [pattern(7 * 65)[65 * i:65 * (i + 1)] for i in range(7)]
    assert pattern(600)[251:502] == pattern(251) and len(set(pattern(251))) == 251
    assert batch.buffer().raw[:batch.total] == batch.data()
    assert "7 messages of 65 bytes" in batch.describe()


@pytest.mark.core
def test_a_mixed_batch_is_the_same_in_every_run_and_meets_every_tail_length():
    mixed = next(b for b in C_BATCHES if b.mixed)
    lengths = mixed.lengths
    assert lengths == Batch(mixed.name, mixed.count).lengths and len(lengths) == mixed.count
    assert min(lengths) == 0 and max(lengths) == MIXED_MAX
    assert {n % 64 for n in lengths} == set(range(64)), "every tail length, one- and two-block tails alike"
    ends = mixed.offsets
    assert tuple(ends[i + 1] - ends[i] for i in range(mixed.count)) == lengths and ends[-1] == mixed.total
    assert f"seed {MIXED_SEED}" in mixed.describe()


@pytest.mark.core
def test_the_batches_have_one_name_each():
    assert len({b.name for b in C_BATCHES}) == len(C_BATCHES)
    assert any(b.mixed for b in C_BATCHES) and any(not b.mixed for b in C_BATCHES)


def runnable(rows):
    return [row for row in rows if not row.left_out]


@pytest.mark.external
def test_every_python_batch_row_hashes_right_and_runs():
    rows = python_batches.python_batch_benchmarks(SMALL)
    assert len(rows) == 4 * len(SMALL)
    for row in rows:
        if row.left_out:
            assert "pip install" in row.left_out, row.left_out
            continue
        row.make_run()(2)  # make() checks every digest against hashlib first
    titles = [row.title for row in rows]
    assert len(set(titles)) == len(titles)
    if importlib.util.find_spec("pyarrow") is not None:
        assert any("pyarrow" in t and "MIXED" in t for t in titles)
    if importlib.util.find_spec("numpy") is not None:
        assert any("numpy" in t and "5x100b" in t for t in titles)


@pytest.mark.external
@pytest.mark.skipif(not stringzilla.available(), reason="needs StringZilla (pip install 'libsha[bench]')")
def test_a_row_whose_digests_are_wrong_is_never_timed(monkeypatch):
    monkeypatch.setattr(python_batches, "_sz_list", lambda messages: [bytes(32)] * len(messages))
    rows = [r for r in python_batches.python_batch_benchmarks(SMALL) if "update(list)" in r.runner]
    assert len(rows) == len(SMALL)
    for row in rows:
        with pytest.raises(RuntimeError, match="disagrees with hashlib"):
            row.make_run()


@pytest.mark.core
def test_without_stringzilla_its_rows_are_left_out_saying_how_to_install_it(monkeypatch):
    monkeypatch.setattr(stringzilla, "available", lambda: False)
    rows = python_batches.python_batch_benchmarks(SMALL)
    theirs = [r for r in rows if r.runner.startswith("stringzilla")]
    assert len(theirs) == 2 * len(SMALL) and all(r.left_out == python_batches.NO_STRINGZILLA for r in theirs)
    assert all("(StringZilla, one Python call)" in r.runner for r in theirs)
    assert all(not r.left_out for r in rows if "libsha.sha256_many(list)" in r.runner)


@pytest.mark.core
def test_the_check_compares_with_hashlib_message_by_message():
    batch = SMALL[1]
    right = [hashlib.sha256(m).digest() for m in batch.messages()]
    python_batches._checked("ok", lambda prepared: right, None, batch)
    python_batches._checked("ok", lambda prepared: bytearray(b"".join(right)), None, batch)
    wrong = right[:-1] + [bytes(32)]
    with pytest.raises(RuntimeError, match="disagrees with hashlib on SMALL_33xMIXED"):
        python_batches._checked("bad", lambda prepared: wrong, None, batch)
