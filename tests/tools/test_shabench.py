"""shabench: statistics, formats, options, compare, sweep, verify. No timing assertions."""

import csv
import io
import json
import os
import re
import subprocess
import sys

import pytest

import libsha
from conftest import runnable_implementations
from shabench import cli, report
from shabench.benchmarks import DEFAULT_GROUPS, GROUPS, catalogue, default_benchmarks, runnable_implementations
from shabench.rows import Benchmark, backend
from shabench.measure import Measurement, median_absolute_percent_error
from shabench.sizes import parse_sizes

from support.paths import ROOT
from support.shabench_cli import listed_rows, run_cli

RUNNABLE = runnable_implementations()
FAST = ["--min-time", "0.5", "--epochs", "3"]


def fake_rows():
    m1 = Measurement(per_unit_ns=[2.0, 2.0, 2.02], iterations=5, total_s=0.5)
    m2 = Measurement(per_unit_ns=[10.0, 13.0, 9.0], iterations=7, total_s=0.25)
    b1 = Benchmark("SHA256_32b", "standard", 32, None)
    b2 = Benchmark("SHA1", "hashlib.sha1 (OpenSSL 3, Python loop)", 1_000_000, None, peer=True)
    return [(b1, m1), (b2, m2)]


def test_err_is_nanobench_mdape():
    # median 10; |x - 10| / x = 0.1, 0, 0.2, 1/11, 0.25 -> median 0.1
    assert median_absolute_percent_error([9.0, 10.0, 12.5, 11.0, 8.0]) == pytest.approx(1 / 9)
    assert median_absolute_percent_error([5.0, 5.0, 5.0]) == 0.0


def test_row_numbers_are_formatted_like_nanobench():
    row = report.format_row("SHA256 using the 'standard' SHA256 implementation", 4.0512, 0.0123, 0.126)
    assert row == ["4.05", f"{1e9 / 4.0512:,.2f}", "1.2%", "0.13", "`SHA256 using the 'standard' SHA256 implementation`"]
    assert re.fullmatch(r"\d{3},\d{3},\d{3}\.\d\d", row[1])
    assert report.format_row("x", 1.0, 0.07, 1.0)[2] == "7.0% :wavy_dash:"


def test_table_columns_and_titles():
    lines = report.render(fake_rows()).splitlines()
    assert [c.strip() for c in lines[0].strip("|").split("|")] == ["ns/byte", "byte/s", "err%", "total", "benchmark"]
    assert re.fullmatch(r"\|-+:\|-+:\|-+:\|-+:\|:-+\|", lines[1])
    assert "`SHA256_32b using the 'standard' SHA256 implementation`" in lines[2]
    assert "`SHA1 using hashlib.sha1 (OpenSSL 3, Python loop)`" in lines[3]
    assert lines[-1] == report.UNSTABLE_HINT  # the second row's err% is 10 %


def test_json_round_trip_and_schema(tmp_path):
    context = {"cpu": "x", "features": [], "options": {}}
    path = tmp_path / "r.json"
    path.write_text(report.to_json(context, fake_rows()))
    data = report.load(path)
    assert data["schema"] == "shabench/1" and data["context"] == context
    first = data["benchmarks"][0]
    assert first == {
        "name": "SHA256_32b", "implementation": "standard",
        "title": "SHA256_32b using the 'standard' SHA256 implementation", "unit": "byte",
        "bytes_per_iteration": 32, "iterations_per_epoch": 5, "epochs": 3,
        "median_ns_per_byte": 2.0, "err_percent": 0.0, "total_s": 0.5, "epoch_ns_per_byte": [2.0, 2.0, 2.02],
        # EOS's columns: 32 bytes a call
        "average_ns_per_call": pytest.approx(32 * (2.0 + 2.0 + 2.02) / 3), "minimum_ns_per_call": 64.0,
        "maximum_ns_per_call": pytest.approx(64.64),
    }


@pytest.mark.parametrize("content", ['{"schema": "other"}', "[]", '{"schema": "shabench/1", "benchmarks": [{}]}', "not json"])
def test_load_rejects_foreign_files(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError):
        report.load(path)


def test_compare_arithmetic():
    rows = fake_rows()
    base = {"benchmarks": [{"title": rows[0][0].title, "median_ns_per_byte": 4.0},
                           {"title": "gone", "median_ns_per_byte": 1.0}]}
    text, ratios = report.compare(base, rows)
    assert ratios == [pytest.approx(0.5)]
    assert "|          4.000 |     2.000 |   0.500 |" in text
    assert "1 rows compared" in text and "1 only in this run, 1 only in the base" in text


def test_csv():
    rows = list(csv.DictReader(io.StringIO(report.to_csv(fake_rows()))))
    assert rows[0]["name"] == "SHA256_32b" and float(rows[0]["ns_per_byte"]) == 2.0
    assert float(rows[1]["bytes_per_s"]) == pytest.approx(1e8)


def test_markdown_has_the_header():
    text = report.to_markdown(["CPU: x", "Using the 'standard' SHA256 implementation"], fake_rows())
    assert text.startswith("## shabench\n\n- CPU: x\n- Using the 'standard'")


@pytest.mark.parametrize(
    "text, expected",
    [("16,32,1K", [("16b", 16), ("32b", 32), ("1K", 1000)]), ("1Ki, 64Ki,1M", [("1Ki", 1024), ("64Ki", 65536), ("1M", 1_000_000)]),
     ("1Mi", [("1Mi", 1 << 20)]), ("7", [("7b", 7)])],
)
def test_sizes(text, expected):
    assert parse_sizes(text) == expected


@pytest.mark.parametrize("text", ["", "0", "16,", "abc", "1G", "-5", "2Gi", "16,16", "1.5K"])
def test_bad_sizes(text):
    with pytest.raises(ValueError):
        parse_sizes(text)


def test_the_catalogue_covers_every_implementation_and_peer():
    # Every row of the run that was the default before the quick one (shabench --all runs them).
    titles = [b.title for b in catalogue(RUNNABLE)]
    for impl in RUNNABLE:
        for name in ("SHA256", "SHA256_32b", "SHA256_64b", "SHA256D64_1024"):
            assert f"{name} using the '{impl}' SHA256 implementation" in titles
    dirty = [t for t in titles if t.startswith("SHA256_32b_dirty_upper")]
    if "avx" in libsha.dispatch.cpu_features():  # one per SHA-NI row (their single stream is SSE-encoded)
        shani_rows = [impl for impl in libsha.dispatch.implementations() if impl.runnable and "shani" in impl.name]
        assert dirty == [f"SHA256_32b_dirty_upper using the '{impl.name}' SHA256 implementation" for impl in shani_rows]
    for impl in RUNNABLE:
        for name in ("SHA256_32b_stream", "HMAC_SHA256_32b"):  # C loops of our own
            assert f"{name} using the '{impl}' SHA256 implementation" in titles
    active = libsha.dispatch.implementation()
    for name, call in (("SHA256", "libsha.sha256_digest"), ("SHA256_32b", "libsha.sha256_digest"),
                       ("SHA256_64b", "libsha.sha256_digest"), ("SHA256_1K", "libsha.sha256_digest"),
                       ("SHA256", "libsha.sha256(m).digest()"), ("SHA256_32b", "libsha.sha256(m).digest()"),
                       ("SHA256_1K", "libsha.sha256(m).digest()"),
                       ("SHA256_32b_stream", "libsha.sha256, update, digest"), ("HMAC_SHA256_32b", "libsha.hmac_sha256"),
                       ("HMAC_SHA256_32b", "hmac.new(digestmod=libsha.sha256)")):
        # What a Python caller gets, labelled as a Python loop, beside hashlib's row of the same name.
        assert f"{name} using {call} ('{active}', {libsha.dispatch.binding()}, Python loop)" in titles
        assert any(t.startswith(f"{name} using h") and "libsha" not in t and t.endswith("Python loop)") for t in titles)
    for impl in RUNNABLE:  # many messages at once, timed in C
        for name in ("SHA256_MANY_1000x16KiB", "SHA256_MANY_10000x1KiB", "SHA256_MANY_1000000x64b"):
            assert f"{name} using the '{impl}' SHA256 implementation" in titles
    for impl in RUNNABLE:  # the level call itself (merkle group), beside hashtree's kernels of that name
        assert (f"SHA256_MANY_1000000x64b using libsha_sha256_64, the level call, on '{impl}' (one C call through "
                "ctypes)") in titles
    for name, call in (("SHA256_MANY_1000000x64b", "libsha.sha256_many(list)"),
                       ("SHA256_MANY_65536x1KiB", "libsha.sha256_many(list, threads=2)"),
                       ("MERKLE_1000000", "libsha.merkle_root(list)")):
        # One Python call for the whole batch, labelled so, beside a Python loop over hashlib.
        assert f"{name} using {call} ('{active}', one Python call)" in titles
    assert "SHA256_MANY_1000000x64b using hashlib.sha256 (" + backend("sha256") + ", list comprehension)" in titles
    assert "MERKLE_1000000 using libsha.reference.merkle_root over hashlib.sha256 (Python loop)" in titles
    for peer in ("SHA256 using hashlib.sha256", "SHA1 using hashlib.sha1", "SHA512 using hashlib.sha512",
                 "SHA3_256_1M using hashlib.sha3_256", "BLAKE2b using hashlib.blake2b"):
        assert any(t.startswith(peer) and t.endswith("Python loop)") for t in titles), peer


def test_openssl_peer_rows_beside_the_rows_without_sha_ni(monkeypatch):
    from shabench import openssl

    rows = openssl.openssl_benchmarks(RUNNABLE, libsha.dispatch.cpu_features())
    masked = {openssl.mask_for(impl) for impl in RUNNABLE} - {None}
    assert {(b.name, b.runner.split("OPENSSL_ia32cap=")[1].split()[0]) for b in rows} == {
        (name, f'"{openssl.MASKS[key][0]}"') for key in masked for name, _ in openssl.SIZES}
    assert all(b.peer and b.title.endswith("C loop)") for b in rows)
    runnable = [b for b in rows if not b.left_out]
    if not runnable:
        pytest.skip("no OpenSSL peer row can run here (no libcrypto, or a CPU without the masks' features)")
    # The child runs from the checkout too (as CI does): it must load the same libsha, not the
    # source tree's, check OpenSSL's digest and time it.
    monkeypatch.chdir(ROOT)
    row = next(b for b in runnable if b.unit_bytes == 64)
    result = row.interleaved.measurement(row, 3, 1.0)
    assert len(result.per_unit_ns) == 3 and all(t > 0 for t in result.per_unit_ns)


def test_the_quick_default_is_the_c_and_python_groups_and_one_batch():
    rows = default_benchmarks(RUNNABLE)
    assert {b.group for b in rows} == {*DEFAULT_GROUPS, "many"}
    every = catalogue(RUNNABLE)
    assert [b.title for b in rows if b.group in DEFAULT_GROUPS] == [b.title for b in every if b.group in DEFAULT_GROUPS]
    batch = [b.title for b in rows if b.group == "many"]
    assert len(batch) == 2 and "libsha.sha256_many(list)" in batch[0] and "list comprehension" in batch[1]
    assert {b.group for b in every} == set(GROUPS)


def test_list_shows_every_group_and_row(capsys):
    assert cli.main(["--list"]) == 0
    out = capsys.readouterr().out
    for name in GROUPS:
        assert any(line.startswith(f"{name}: ") for line in out.splitlines()), name
    assert listed_rows(out) == [b.title + (" (default)" if b.in_default else "")
                                + (f"  (left out: {b.left_out})" if b.left_out else "") for b in catalogue(RUNNABLE)]


def test_group_and_all_choose_rows(capsys):
    assert cli.main(["--list", "--group", "python", "--group", "peers"]) == 0
    out = capsys.readouterr().out
    headings = [line.split(":")[0] for line in out.splitlines() if not line.startswith("  ")]
    assert headings[0].startswith("Supported features are") and set(headings[1:]) == {"python", "peers"}
    assert cli.main(["--list", "--all"]) == 0
    assert len(listed_rows(capsys.readouterr().out)) == len(catalogue(RUNNABLE))


def test_list_filter_and_impl(capsys):
    assert cli.main(["--list", "--filter", "^SHA256_32b$"]) == 0
    out = listed_rows(capsys.readouterr().out)
    assert out and all(line.startswith("SHA256_32b using") for line in out)
    assert cli.main(["--list", "--filter", "^SUM_"]) == 0  # --filter reaches every group
    assert listed_rows(capsys.readouterr().out)
    assert cli.main(["--list", "--impl", "standard"]) == 0
    out = capsys.readouterr().out.splitlines()
    native = [line for line in out if "SHA256 implementation" in line]
    assert native and all("'standard'" in line for line in native)
    assert cli.main(["--list", "--sizes", "16,1K", "--impl", "standard", "--filter", "standard"]) == 0
    binding = libsha.dispatch.binding()  # one --impl: the sweep's Python rows run on it too
    assert capsys.readouterr().out.splitlines() == [
        "SHA256_16b using the 'standard' SHA256 implementation", "SHA256_1K using the 'standard' SHA256 implementation",
        f"SHA256_16b using libsha.sha256_digest ('standard', {binding}, Python loop)",
        f"SHA256_1K using libsha.sha256_digest ('standard', {binding}, Python loop)"]


@pytest.mark.parametrize(
    "argv, message",
    [(["--filter", "("], "--filter"), (["--min-time", "0"], "--min-time"), (["--epochs", "0"], "--epochs"),
     (["--impl", "nope"], "--impl"), (["--sizes", "abc"], "--sizes"), (["--plot", "x.png"], "--sizes"),
     (["--format", "xml"], "--format"), (["--compare", "/nonexistent.json"], "--compare"), (["bogus"], "invalid choice"),
     (["--group", "nope"], "--group"), (["--all", "--group", "c"], "--all"), (["--sizes", "16", "--all"], "--sizes")],
)
def test_bad_options_are_argparse_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_no_match_is_an_error():
    assert cli.main(["--filter", "nothing-matches-this"]) == 2


def test_a_short_run_prints_header_and_table(tmp_path):
    result = run_cli(["--filter", "SHA256D64_1024 using the 'standard'", *FAST], tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("CPU: ") and "features:" in lines[0]
    assert re.match(r"libsha \d+\.\d+\.\d+ \(\w+ build\)", lines[1])
    assert re.fullmatch(r"Using the '.+' SHA256 implementation", lines[2])
    (row,) = [line for line in lines if "SHA256D64_1024" in line]
    ns, rate, err, total, title = [c.strip() for c in row.strip("|").split("|")]
    assert float(ns) > 0 and float(rate.replace(",", "")) == pytest.approx(1e9 / float(ns), rel=0.01)
    assert re.fullmatch(r"\d+\.\d%( :wavy_dash:)?", err)
    assert title == "`SHA256D64_1024 using the 'standard' SHA256 implementation`"
    assert result.stderr == ""  # no progress when stderr is not a terminal


def test_json_then_compare_against_itself(tmp_path):
    out = tmp_path / "base.json"
    result = run_cli(["--filter", "SHA256_64b using the 'standard'", *FAST, "--format", "json", "--output", str(out)], tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text())
    assert data["context"]["options"]["epochs"] == 3 and len(data["benchmarks"]) == 1
    assert len(data["benchmarks"][0]["epoch_ns_per_byte"]) == 3
    # The file compared against itself: every ratio exactly 1.
    rows = [(Benchmark(r["name"], r["implementation"], r["bytes_per_iteration"], None),
             Measurement(per_unit_ns=r["epoch_ns_per_byte"])) for r in data["benchmarks"]]
    _, ratios = report.compare(data, rows)
    assert ratios == [pytest.approx(1.0)]
    result = run_cli(["--filter", "SHA256_64b using the 'standard'", *FAST, "--compare", str(out)], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "1 rows compared" in result.stdout


def test_sweep_with_plot(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "sweep.png"
    result = run_cli(["--sizes", "16,64,1K", "--impl", "standard", *FAST, "--plot", str(png), "--filter", "standard|hashlib"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "SHA256_16b using the 'standard'" in result.stdout and "SHA256_1K using hashlib.sha256" in result.stdout


def test_verify_passes(capsys):
    assert cli.main(["verify"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("all OK") and "FAIL" not in out
    for impl in RUNNABLE:
        assert f"`{impl}`" in out


def test_verify_prints_its_seed_and_replays_it(capsys, monkeypatch):
    from shabench import verify

    seen = []
    monkeypatch.setattr(verify, "CHECKS", [("first bytes", lambda rng: seen.append(rng.randbytes(8)) or True)])
    monkeypatch.setenv("SHABENCH_SEED", "1234")
    assert cli.main(["verify", "--impl", "standard"]) == 0
    assert "seed 1234; SHABENCH_SEED=1234 replays it" in capsys.readouterr().out
    monkeypatch.delenv("SHABENCH_SEED")
    assert cli.main(["verify", "--impl", "standard"]) == 0
    seed = int(re.search(r"seed (\d+);", capsys.readouterr().out)[1])
    assert seen[0] == __import__("random").Random(1234).randbytes(8)
    assert seen[1] == __import__("random").Random(seed).randbytes(8)


def test_verify_fails_when_an_implementation_is_wrong(capsys, monkeypatch):
    # A test hook: make 'standard' give a wrong digest for one NIST message length.
    real = libsha.sha256_digest

    def broken(data=b""):
        digest = real(data)
        if libsha.dispatch.implementation() == "standard" and len(data) == 3:
            return bytes(32)
        return digest

    monkeypatch.setattr(libsha, "sha256", broken)
    assert cli.main(["verify"]) == 1
    out = capsys.readouterr().out
    (standard_row,) = [line for line in out.splitlines() if line.startswith("| `standard`")]
    assert "FAIL" in standard_row
    assert "FAILED" in out


def test_benchmarks_leave_the_active_implementation_alone(tmp_path):
    code = (
        "import libsha, shabench.cli as c; libsha.dispatch.select('standard');"
        "c.main(['--filter', 'SHA256_32b', '--min-time', '0.5', '--epochs', '2']); print(libsha.dispatch.implementation())"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "standard"


def test_progress_only_on_a_terminal():
    from shabench.progress import Progress

    class Stream(io.StringIO):
        def __init__(self, tty):
            super().__init__()
            self.tty = tty

        def isatty(self):
            return self.tty

    quiet, loud = Stream(False), Stream(True)
    for stream in (quiet, loud):
        p = Progress(3, stream=stream, delay_s=0)
        p.update(0, "SHA256 using x")
        p.close()
    assert quiet.getvalue() == ""
    assert "[1/3, 2 left] SHA256 using x" in loud.getvalue()


def test_ctrl_c_prints_the_rows_done(capsys, monkeypatch):
    import shabench.cli as shabench_cli

    real, calls = shabench_cli.measure, []

    def interrupt_second(*args):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(shabench_cli, "measure", interrupt_second)
    assert cli.main(["--impl", "standard", "--filter", "using the 'standard'", "--min-time", "0.5", "--epochs", "2"]) == 130
    captured = capsys.readouterr()
    assert "SHA256 using the 'standard'" in captured.out and "SHA256_32b" not in captured.out
    # --filter: every group's rows, a row two groups share once
    rows = len([row for row in catalogue(["standard"]) if "using the 'standard'" in row.title])
    assert f"interrupted after 1 of {rows} rows" in captured.err


def test_debug_builds_are_flagged():
    from shabench import context

    assert context.warnings({"build_type": "Release"}) == []
    (note,) = context.warnings({"build_type": "Debug"})
    assert "Debug" in note and "not representative" in note
    lines = context.header_lines({"cpu": "c", "machine": "m", "cpu_count": 2, "features": [], "libsha_version": "1",
                                  "build_type": "Debug", "python": "3", "openssl": "o", "implementation": "standard",
                                  "binding": "ctypes"})
    assert any(line.startswith("Warning:") for line in lines)


def test_column_rows_check_every_peer_then_run(monkeypatch):
    pytest.importorskip("pyarrow")
    from shabench import columns

    # Small shapes: each row's make() compares the peer's digests with libsha's, then runs once.
    monkeypatch.setattr(columns, "SHAPES", [("COLUMN_64b_1M", 3000, 64), ("COLUMN_1KiB_100k", 300, 1024)])
    rows = columns.column_benchmarks()
    titles = [b.title for b in rows]
    active = libsha.dispatch.implementation()
    for name in ("COLUMN_64b_1M", "COLUMN_1KiB_100k"):
        for call in ("threads=1", "threads=0", "hex=True, threads=1"):
            assert f"{name} using libsha.sha256_many(pyarrow binary, {call}) ('{active}', one Python call)" in titles
        assert any(t.startswith(f"{name} using hashlib.sha256 (") for t in titles)
        assert f"{name} using polars-hash sha2_256 (Rust)" in titles and f"{name} using DuckDB sha256() (C++)" in titles
    for row in rows:
        installed = row.left_out is None
        if "polars-hash" in row.title or "DuckDB" in row.title:
            packages = ("polars", "polars_hash") if "polars" in row.title else ("duckdb",)
            assert installed == all(__import__("importlib").util.find_spec(p) for p in packages)
        if installed:
            row.make_run()(1)
        else:
            assert "not installed (pip install 'libsha[bench]')" in row.left_out


def test_a_left_out_row_says_why_only_when_asked_for(monkeypatch, capsys):
    from shabench import columns

    monkeypatch.setattr(columns, "_missing", lambda *packages: [p for p in packages if p == "duckdb"])
    assert cli.main(["--filter", "COLUMN_64b_1M using DuckDB", "--list"]) == 0
    assert "left out: duckdb not installed" in capsys.readouterr().out
    assert cli.main(["--filter", "COLUMN_64b_1M using DuckDB", "--epochs", "1"]) == 2  # nothing could run
    err = capsys.readouterr().err
    assert err.count("left out, ") == 1
    assert "left out, duckdb not installed (pip install 'libsha[bench]'): DuckDB sha256() (C++) in COLUMN_64b_1M" in err


def test_a_peer_that_disagrees_is_not_timed(monkeypatch):
    pytest.importorskip("pyarrow")
    from shabench import columns

    monkeypatch.setattr(columns, "SHAPES", [("COLUMN_64b_1M", 50, 64)])
    monkeypatch.setattr(columns, "_expected_hex", lambda values: ["0" * 64] * len(values))
    hashlib_row = next(r for r in columns.column_benchmarks() if "hashlib" in r.title)
    with pytest.raises(RuntimeError, match="hashlib disagrees with libsha"):
        hashlib_row.make_run()


def test_file_rows_run_interleaved_and_labelled(monkeypatch, capsys):
    from shabench import files

    monkeypatch.setenv("SHABENCH_SUM_MIB", "2")
    monkeypatch.setenv("SHABENCH_FILES_MIB", "1")  # 16 files of 1 MiB, not of 64
    monkeypatch.setattr(files, "SMALL_FILES", (40, 4096))
    monkeypatch.setattr(files, "EMPTY_RUNS", 1)
    monkeypatch.setattr(files, "_workdir", None)
    titles = [b.title for b in files.file_benchmarks() + files.sum_benchmarks()]
    assert "SUM_2MiB using libsha sum (command, wall time)" in titles
    assert any(t.startswith("SUM_40x4KiB using libsha sum, ") for t in titles)
    assert any(t.startswith("SUM_EMPTY_FILE using python -c pass, the same Python") for t in titles)
    assert any(t.startswith("FILE_2MiB using libsha.sha256_file(path) (") and "one Python call" in t for t in titles)
    assert cli.main(["--filter", "SUM_|FILES?_", "--epochs", "2"]) == 0
    out = capsys.readouterr().out
    for row in ("FILE_2MiB", "SUM_2MiB", "SUM_40x4KiB", "SUM_EMPTY_FILE", "FILES_16x1MiB", "SUM_16x1MiB"):
        assert f"`{row} using libsha" in out
    if files.gnu_sha256sum():
        assert "`SUM_2MiB using GNU sha256sum (command, wall time)`" in out


def test_a_command_that_disagrees_is_not_timed(tmp_path):
    from shabench import files

    (tmp_path / "x").write_bytes(b"x")
    make = files._command_run([sys.executable, "-c", "print('0' * 64 + '  x')"], tmp_path, ["1" * 64])
    with pytest.raises(RuntimeError, match="disagrees with libsha"):
        make()


def test_the_quick_runs_foot_names_what_it_left_out():
    args = cli.parse_args([])
    foot = cli.left_out_note(args, default_benchmarks(RUNNABLE))
    others = [name for name in GROUPS if name not in DEFAULT_GROUPS and name != "many"]
    assert f"left out the groups many (all but the 2 rows above), {', '.join(others)}" in foot
    assert "--group NAME" in foot and "--all" in foot
    for argv in (["--all"], ["--group", "c"], ["--filter", "x"], ["--sizes", "16"]):
        assert cli.left_out_note(cli.parse_args(argv), []) == ""
    assert cli.options_record(cli.parse_args(["--group", "sum", "--group", "c"]))["groups"] == ["c", "sum"]


def test_stats_columns_are_the_time_per_call_over_the_epochs():
    rows = fake_rows()
    lines = report.render(rows, stats=True).splitlines()
    assert [c.strip() for c in lines[0].strip("|").split("|")] == [
        "ns/byte", "byte/s", "err%", "total", "avg ns/op", "min ns/op", "max ns/op", "benchmark"]
    cells = [c.strip() for c in lines[2].strip("|").split("|")]
    # SHA256_32b: 32 bytes a call, epochs of 2.0, 2.0 and 2.02 ns/byte
    assert cells[4:7] == [f"{32 * (2.0 + 2.0 + 2.02) / 3:,.1f}", "64.0", "64.6"]
    assert report.render(rows).splitlines()[0].count("ns/op") == 0  # only on request


def test_streams_and_large_files_rows_are_catalogued():
    from shabench.benchmarks import catalogue
    from shabench.streams import SEPARATE, STREAM_ROWS

    titles = [b.title for b in catalogue(runnable_implementations(), {"many", "files", "sum"})]
    if libsha.dispatch.lanes() > 1:
        for name, *_ in STREAM_ROWS:
            impl = libsha.dispatch.implementation()
            assert f"{name} using the '{impl}' SHA256 implementation" in titles
            assert f"{name}{SEPARATE} using the '{impl}' SHA256 implementation" in titles
    assert any(t.startswith("FILES_16x64MiB using libsha.sha256_files(paths, jobs=1)") for t in titles)
    assert any(t.startswith("SUM_16x64MiB using libsha sum") for t in titles)


@pytest.mark.parametrize("argv", [["--list"], ["--filter", "SHA256_32b"], ["verify"]])
def test_an_invalid_libsha_impl_is_one_line_and_status_2(tmp_path, argv):
    env = dict(os.environ, LIBSHA_IMPL="bogus")
    result = run_cli(argv, tmp_path, env=env)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("shabench: LIBSHA_IMPL='bogus': 'bogus' is not one of")


def test_verity_rows_check_every_peer_then_run(monkeypatch, capsys):
    from shabench import verity

    monkeypatch.setenv("SHABENCH_VERITY_MIB", "2")
    monkeypatch.setattr(verity, "BUFFER_MIB", 1)
    verity._file.cache_clear()
    verity._buffer.cache_clear()
    assert cli.main(["--filter", "^(FSVERITY|DMVERITY)_(DIGEST|FORMAT)|TREE_1MiB_buffer using the 'standard'",
                     "--epochs", "1"]) == 0
    out = capsys.readouterr().out
    for row in ("FSVERITY_DIGEST_2MiB_file using libsha.fsverity.file_digest(path)",
                "FSVERITY_DIGEST_2MiB_file using hashlib, a call a 4 KiB block",
                "FSVERITY_DIGEST_2MiB_file using libsha fsverity digest (command",
                "DMVERITY_FORMAT_2MiB_file using libsha.dmverity.format(data, hash)",
                "DMVERITY_FORMAT_2MiB_file using libsha verity format (command",
                "FSVERITY_TREE_1MiB_buffer using the 'standard'", "DMVERITY_TREE_1MiB_buffer using the 'standard'"):
        assert f"`{row}" in out
    if verity.fsverity_command():
        assert "`FSVERITY_DIGEST_2MiB_file using fsverity digest (fsverity-utils) (command, wall time)`" in out
    if verity.veritysetup_command():
        assert "`DMVERITY_FORMAT_2MiB_file using veritysetup format (cryptsetup) (command, wall time)`" in out
    verity._file.cache_clear()
