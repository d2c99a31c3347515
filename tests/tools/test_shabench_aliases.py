"""shabench under bench_bitcoin's and EOS's spellings (shabench/aliases.py): each gives the rows of its
shabench form, a pair that sets one thing twice is an error, --help and docs/shabench.md name every
one, EOS's table and counted runs, bench_bitcoin's sanity check, and what --impl reaches."""

import os
import re
import subprocess
import sys

import pytest

import libsha
from conftest import runnable_implementations
from shabench import aliases, cli, report
from shabench.benchmarks import GROUPS, catalogue
from shabench.measure import Interleaved, Measurement
from shabench.rows import Benchmark

from support.paths import ROOT
from support.shabench_cli import listed_rows, run_cli

RUNNABLE = runnable_implementations()


def chosen(argv):
    """The titles of the rows a command line chooses, as a run would take them (nothing is timed)."""
    args = cli.parse_args(argv)
    with cli.restricted(args):
        return [b.title for b in cli.chosen_benchmarks(args, args.impl or RUNNABLE)]


def whole(regex):
    return rf"\A(?:{regex})\Z"


@pytest.mark.parametrize("regex", ["SHA256_32b", "SHA256_32b.*", "SHA256", ".*standard.*", "MERKLE_9001|SHA256_64b"])
def test_bench_bitcoins_filter_is_a_whole_match_of_a_name_or_title(regex):
    rows = chosen([f"-filter={regex}"])
    assert rows and rows == chosen(["--filter", whole(regex)])
    pattern = re.compile(regex)
    assert rows == [b.title for b in catalogue(RUNNABLE) if pattern.fullmatch(b.name) or pattern.fullmatch(b.title)]


def test_bench_bitcoins_filter_differs_from_ours_where_a_name_only_begins_so():
    theirs, ours = chosen(["-filter=SHA256_32b"]), chosen(["--filter", "SHA256_32b"])
    assert {t.split()[0] for t in theirs} == {"SHA256_32b"}
    assert {"SHA256_32b_stream", "HMAC_SHA256_32b"} <= {t.split()[0] for t in ours}


@pytest.mark.parametrize("epochs", [11, 4])
def test_bench_bitcoins_min_time_is_a_whole_row(epochs):
    theirs = cli.parse_args(["-min-time=440", "--epochs", str(epochs)])
    assert theirs.min_time == pytest.approx(440 / epochs)
    assert cli.parse_args(["--min-time", "440"]).min_time == 440
    assert cli.parse_args([]).min_time == cli.DEFAULT_MIN_TIME_MS


def test_bench_bitcoins_list_is_the_titles_of_our_list(capsys):
    assert cli.main(["-list"]) == 0
    titles = capsys.readouterr().out.splitlines()
    assert cli.main(["--list"]) == 0
    ours = [re.sub(r"( \(default\))?(  \(left out: .*\))?$", "", line) for line in listed_rows(capsys.readouterr().out)]
    assert titles == ours == [b.title for b in catalogue(RUNNABLE)]
    assert cli.main(["-list", "-filter=SHA256D64_1024"]) == 0
    assert capsys.readouterr().out.splitlines() == chosen(["--filter", whole("SHA256D64_1024")])


def test_eos_list_is_our_list_headed_by_the_features(capsys):
    assert cli.main(["-l"]) == 0
    short = capsys.readouterr().out
    assert cli.main(["--list"]) == 0
    assert short == capsys.readouterr().out
    first = short.splitlines()[0]
    assert first.startswith("Supported features are " + ", ".join(GROUPS))


@pytest.mark.parametrize("group", list(GROUPS))
def test_a_feature_that_is_a_group_is_its_rows(group):
    assert chosen(["-f", group]) == chosen(["--group", group])


def test_a_feature_that_is_a_row_name_is_every_row_of_that_name():
    assert chosen(["--feature", "SHA256_32b"]) == chosen(["-filter=SHA256_32b"])
    both = chosen(["-f", "SHA256", "--feature", "MERKLE_9001"])
    assert both == chosen(["-filter=SHA256|MERKLE_9001"])
    assert {t.split()[0] for t in both} == {"SHA256", "MERKLE_9001"}
    assert chosen(["-f", "c", "--filter", "standard"]) == chosen(["--group", "c", "--filter", "standard"])


def test_an_unknown_feature_is_not_supported(capsys):
    assert cli.main(["-f", "sha3"]) == 2
    assert "-f/--feature 'sha3' is not supported" in capsys.readouterr().err


@pytest.mark.parametrize("argv, fmt", [(["-f", "c"], "eos"), (["-r", "5"], "eos"), (["-f", "c", "--format", "json"], "json"),
                                       ([], "table"), (["-filter=x"], "table")])
def test_eos_options_choose_eos_table_unless_a_format_is_given(argv, fmt):
    assert cli.parse_args(argv).format == fmt


@pytest.mark.parametrize(
    "argv, message",
    [(["-filter=a", "--filter", "b"], "-filter= and --filter both given"),
     (["-min-time=5", "--min-time", "5"], "-min-time= and --min-time both given"),
     (["-r", "5", "--min-time", "5"], "-r/--runs counts"), (["-r", "5", "-min-time=5"], "-r/--runs counts"),
     (["-list", "--list"], "-list (bench_bitcoin's"), (["-list", "-l"], "-list (bench_bitcoin's"),
     (["-f", "c", "--group", "c"], "-f/--feature chooses"), (["-f", "c", "--all"], "-f/--feature chooses"),
     (["-f", "c", "--sizes", "16"], "-f/--feature chooses"),
     (["-output-json=a.json", "--output", "a.json"], "must name different files"),
     (["-output-json=a", "-output-csv=./a"], "must name different files"),
     (["-r", "0"], "-r/--runs must be at least 1"), (["--runs", "x"], "invalid int value"),
     (["-min-time=0"], "-min-time must be positive"), (["-min-time=-3"], "-min-time must be positive"),
     (["-filter=("], "-filter=(: missing )"),
     (["-priority-level=high"], "the nearest is --group NAME"), (["-asymptote=1,2"], "the nearest is --sizes LIST")],
)
def test_a_pair_that_sets_one_thing_twice_or_a_bad_value_is_an_error(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("spelling", ["-h", "--help", "-help", "-?"])
def test_every_help_spelling_prints_the_help(capsys, spelling):
    with pytest.raises(SystemExit) as exit_info:
        cli.main([spelling])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("usage: shabench")


def help_entries(monkeypatch):
    """--help's option entries, unwrapped: {first option string: its whole entry}."""
    monkeypatch.setenv("COLUMNS", "10000")
    entries, key = {}, None
    for line in cli.build_parser().format_help().splitlines():
        if re.match(r"  \S", line):
            key = line.split()[0].rstrip(",")
            entries[key] = line
        elif key and line.startswith("    "):  # the help of a long invocation, on the next line
            entries[key] += " " + line.strip()
        else:
            key = None
    return entries


def test_help_shows_each_alias_beside_the_option_it_stands_for(monkeypatch):
    entries = help_entries(monkeypatch)
    keys = {"command": "{run,verify}", "--help": "-h", "--list": "-l", "--feature": "-f", "--runs": "-r"}
    for alias in aliases.ALIASES:
        entry = entries[keys.get(alias.beside, alias.beside)]
        assert f"{alias.tool}'s {alias.spelling}" in entry, (alias, entry)
    for option in aliases.REFUSED:
        assert all(option not in entry for entry in entries.values())  # refused: in the docs, not offered


def test_the_docs_table_names_every_spelling():
    text = (ROOT / "docs" / "shabench.md").read_text()
    table = text[text.index("## Coming from bench_bitcoin / EOS"):]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines() if line.startswith("| `")]
    named = {(spelling.strip("`"), tool) for spelling, tool, *_ in cells}
    assert {(a.spelling, a.tool) for a in aliases.ALIASES} <= named
    assert {option for option, _ in ((s.split("=")[0], t) for s, t in named) if option in aliases.REFUSED} == set(aliases.REFUSED)


def counting_row(unit_bytes=8):
    calls = []

    def make():
        def run(iterations):
            calls.append(iterations)
            for _ in range(iterations):  # a cost that grows with the count, for the calibration
                pass
        return run

    return Benchmark("COUNT", "counter", unit_bytes, make), calls


def test_runs_fixes_the_calls_an_epoch():
    row, calls = counting_row()
    m = cli.measure_row(row, 3, 10.0, 7)
    assert calls == [1, 7, 7, 7]  # one warm call, then three epochs of seven
    assert m.iterations == 7 and len(m.per_unit_ns) == 3
    row, calls = counting_row()
    cli.measure_row(row, 2, 0.01, None)  # calibrated: the counts grow until an epoch lasts 10 µs
    assert calls[0] == 1 and len(calls) >= 3


LONG_ROW = r"shabench: {title}{beside}: 3 epochs of 10 calls take about \d+ s \(Ctrl-C prints the rows done; .*\)\n"


def test_runs_that_make_a_row_long_say_so_first(capsys, monkeypatch):
    row, calls = counting_row()
    cli.measure_row(row, 3, 10.0, 10)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(cli, "LONG_ROW_S", -1)
    cli.measure_row(row, 3, 10.0, 10)
    assert re.fullmatch(LONG_ROW.format(title=re.escape(row.title), beside=""), capsys.readouterr().err)
    cli.measure_row(counting_row()[0], 3, 10.0, None)  # calibrated to --min-time: nothing to foresee
    assert capsys.readouterr().err == ""


def test_runs_that_make_interleaved_rows_long_say_so_first(capsys, monkeypatch):
    monkeypatch.setattr(cli, "LONG_ROW_S", -1)
    group = Interleaved({name: lambda: (lambda: None) for name in ("a", "b", "c")})
    row = Benchmark("X", "a", 1, None, interleaved=group)
    cli.measure_row(row, 3, 10.0, 10)
    beside = r" \(and the 2 rows timed in turn with it\)"
    assert re.fullmatch(LONG_ROW.format(title=re.escape(row.title), beside=beside), capsys.readouterr().err)


def test_runs_that_make_a_peer_process_row_long_say_so_first(capsys, monkeypatch):
    from shabench import openssl

    rows = [b for b in openssl.openssl_benchmarks(RUNNABLE, libsha.dispatch.cpu_features()) if not b.left_out]
    if not rows:
        pytest.skip("no OpenSSL peer row can run here (no libcrypto, or a CPU without the masks' features)")
    row = min(rows, key=lambda b: b.unit_bytes)
    monkeypatch.setattr(cli, "LONG_ROW_S", -1)  # the child tells its foresight before its epochs
    result = cli.measure_row(row, 3, 10.0, 10)
    assert result.iterations == 10 and len(result.per_unit_ns) == 3
    assert re.fullmatch(LONG_ROW.format(title=re.escape(row.title), beside=""), capsys.readouterr().err)


def test_a_peer_process_that_fails_says_why():
    from shabench import openssl

    with pytest.raises(RuntimeError, match=r"OpenSSL peer \(OPENSSL_ia32cap=x\) failed: .*No module named"):
        openssl.PeerProcess("x", 64, module="shabench.no_such_child").measurement(None, 1, 1.0, 1)


def test_runs_counts_an_interleaved_rows_calls():
    ran = {"a": 0, "b": 0}

    def entry(name):
        def make():
            def run():
                ran[name] += 1
            return run
        return make

    group = Interleaved({"a": entry("a"), "b": entry("b")}, runs=3)
    rows = [Benchmark("X", name, 1, None, interleaved=group) for name in ("a", "b")]
    m = cli.measure_row(rows[0], 4, 10.0, 5)
    assert m.iterations == 5 and ran == {"a": 1 + 4 * 5, "b": 1 + 4 * 5}  # one warm run each
    assert cli.measure_row(rows[1], 4, 10.0, 5).iterations == 5


def test_eos_table_is_its_five_columns_under_a_heading_a_group():
    a = Benchmark("SHA256_32b", "standard", 32, None, group="c")
    b = Benchmark("SHA256_32b", "hashlib.sha256 (x, Python loop)", 32, None, peer=True, group="python")
    m1 = Measurement(per_unit_ns=[2.0, 2.5, 3.0], iterations=1000)
    m2 = Measurement(per_unit_ns=[10.0, 10.0, 10.0], iterations=12345)
    lines = report.render_eos([(a, m1), (b, m2)]).splitlines()
    assert lines[0].split() == ["function", "runs", "average", "minimum", "maximum"] and lines[1] == ""
    assert lines[2] == "c:" and lines[4] == "" and lines[5] == "python:"
    cells = lines[3].rsplit(None, 7)
    assert cells[0] == a.title and cells[1:] == ["1,000", "80", "ns", "64", "ns", "96", "ns"]
    assert lines[6].rsplit(None, 7)[1:] == ["12,345", "320", "ns", "320", "ns", "320", "ns"]
    # The columns line up: runs and times end where their headings do.
    assert lines[0].index("runs") + 4 == lines[3].index("1,000") + 5 == lines[6].index("12,345") + 6
    assert lines[0].index("average") + 7 == lines[3].index(" 80 ns") + 3 == lines[6].index(" 320 ns") + 4


def test_eos_command_lines_run_and_print_eos_table(tmp_path):
    impl = RUNNABLE[-1]
    for argv, names in ((["-f", "SHA256_32b", "-r", "50"], {"SHA256_32b"}),
                        (["--feature", "SHA256_64b", "--runs", "20", "-f", "MERKLE_9001"], {"SHA256_64b", "MERKLE_9001"})):
        result = run_cli([*argv, "--impl", impl, "--epochs", "2"], tmp_path)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        header = lines.index(next(line for line in lines if line.startswith("function")))
        assert lines[header].split() == ["function", "runs", "average", "minimum", "maximum"]
        rows = [line for line in lines[header + 1:] if " ns" in line]
        assert rows and {line.split()[0] for line in rows} == names
        runs = argv[argv.index("-r" if "-r" in argv else "--runs") + 1]
        assert all(line.rsplit(None, 7)[1] == runs for line in rows)
        assert {line[:-1] for line in lines[header + 1:] if line.endswith(":")} <= set(GROUPS)


def test_bench_bitcoin_command_line_runs_and_writes_its_files(tmp_path):
    json_path, csv_path = tmp_path / "out.json", tmp_path / "out.csv"
    regex = "SHA256_32b|SHA256_64b using the 'standard' SHA256 implementation"
    result = run_cli([f"-filter={regex}", "-min-time=5", "--impl", "standard", f"-output-json={json_path}",
                      f"-output-csv={csv_path}", "--epochs", "3"], tmp_path)
    assert result.returncode == 0, result.stderr
    table_titles = re.findall(r"`([^`]+)`", result.stdout)
    assert table_titles == chosen([f"-filter={regex}", "--impl", "standard"])
    assert {t.split()[0] for t in table_titles} == {"SHA256_32b", "SHA256_64b"}
    data = report.load(json_path)
    assert [r["title"] for r in data["benchmarks"]] == table_titles
    assert data["context"]["options"]["min_time_ms"] == pytest.approx(5 / 3)
    assert data["context"]["options"]["filter"] == whole(regex)
    assert [line.split(",")[0] for line in csv_path.read_text().splitlines()[1:]] == [t.split()[0] for t in table_titles]
    assert f"wrote {json_path}" in result.stderr and f"wrote {csv_path}" in result.stderr


def test_sanity_check_is_verify_then_every_chosen_row_once(capsys):
    assert cli.main(["-sanity-check", "-filter=SHA256_32b", "--impl", "standard"]) == 0
    out = capsys.readouterr().out
    assert "all OK" in out and "| `standard`" in out
    assert out.rstrip().endswith(f"sanity check: {len(chosen(['-filter=SHA256_32b', '--impl', 'standard']))} row(s) ran once each")
    assert "ns/byte" not in out  # no table


def test_sanity_check_fails_on_a_row_that_fails(capsys, monkeypatch):
    def broken():
        def run(iterations):
            raise RuntimeError("the peer disagrees")
        return run

    rows = [Benchmark("SHA256_BROKEN", "standard", 1, broken), Benchmark("SHA256_GONE", "x", 1, None, left_out="absent")]
    monkeypatch.setattr(cli, "chosen_benchmarks", lambda args, implementations: rows)
    assert cli.main(["-sanity-check", "--impl", "standard"]) == 1
    out = capsys.readouterr().out
    assert "sanity check: 0 row(s) ran once each, 1 left out, 1 FAILED" in out
    assert f"FAILED: {rows[0].title}: RuntimeError: the peer disagrees" in out


def test_one_impl_runs_libshas_python_rows_on_it(capsys):
    before = libsha.dispatch.implementation()
    impl = RUNNABLE[-1]
    assert cli.main(["--list", "--impl", impl, "--group", "python"]) == 0
    titles = listed_rows(capsys.readouterr().out)
    ours = [t for t in titles if t.split(" using ")[1].startswith("libsha")]
    assert ours and all(f"('{impl}'," in t for t in ours)
    assert libsha.dispatch.implementation() == before


def test_several_impls_say_the_python_rows_are_not_restricted(capsys):
    if len(RUNNABLE) < 2:
        pytest.skip("this CPU runs one implementation")
    assert cli.main(["-f", "SHA256_32b", "-r", "3", "--epochs", "1", "--impl", RUNNABLE[0], "--impl", RUNNABLE[-1]]) == 0
    err = capsys.readouterr().err
    assert f"libsha's Python rows on the active one, '{libsha.dispatch.implementation()}'" in err


def test_impl_says_it_does_not_reach_the_sum_rows(capsys):
    args = cli.parse_args(["--impl", "standard"])
    cli.implementation_notes(args, [Benchmark("SUM_EMPTY_FILE", "libsha sum (command)", 1, None, True, group="sum")])
    assert "--impl does not reach the SUM rows" in capsys.readouterr().err
    cli.implementation_notes(cli.parse_args([]), [Benchmark("SUM_EMPTY_FILE", "x", 1, None, True, group="sum")])
    assert capsys.readouterr().err == ""


def test_a_reader_that_goes_away_ends_the_listing_quietly(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_SETPIPE_SZ"):
        pytest.skip("no F_SETPIPE_SZ (Linux's) to make the pipe smaller than the listing")
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)  # the listing (tens of KiB) cannot fit
    process = subprocess.Popen([sys.executable, "-m", "shabench", "-list"], stdout=write_end,
                               stderr=subprocess.PIPE, cwd=tmp_path)
    os.close(write_end)
    first = os.read(read_end, 64)
    os.close(read_end)
    err = process.stderr.read()
    assert process.wait() == 141 and first.startswith(b"SHA256") and err == b""
