"""shabench: its statistics, its table format, its options."""

import re
import subprocess
import sys

import pytest

import libsha
from shabench import cli
from shabench.measure import Measurement, median_absolute_percent_error
from shabench.report import format_row, render


def test_err_is_nanobench_mdape():
    # median 10; |x - 10| / x = 0.1, 0, 0.2, 1/11, 0.25 -> median 0.1
    assert median_absolute_percent_error([9.0, 10.0, 12.5, 11.0, 8.0]) == pytest.approx(1 / 9)
    assert median_absolute_percent_error([5.0, 5.0, 5.0]) == 0.0


def test_row_numbers_are_formatted_like_nanobench():
    row = format_row("SHA256 using the 'standard' SHA256 implementation", 4.0512, 0.0123, 0.126)
    assert row == ["4.05", f"{1e9 / 4.0512:,.2f}", "1.2%", "0.13", "`SHA256 using the 'standard' SHA256 implementation`"]
    assert re.fullmatch(r"\d{3},\d{3},\d{3}\.\d\d", row[1])
    assert format_row("x", 1.0, 0.07, 1.0)[2] == "7.0% :wavy_dash:"


def test_table_columns():
    m = Measurement(per_unit_ns=[2.0, 2.0, 2.02], iterations=5, total_s=0.5)
    lines = render([("SHA256_32b using the 'standard' SHA256 implementation", m)]).splitlines()
    assert [c.strip() for c in lines[0].strip("|").split("|")] == ["ns/byte", "byte/s", "err%", "total", "benchmark"]
    assert re.fullmatch(r"\|-+:\|-+:\|-+:\|-+:\|:-+\|", lines[1])
    assert "`SHA256_32b using the 'standard' SHA256 implementation`" in lines[2]


def test_list_names_every_runnable_implementation(capsys):
    assert cli.main(["--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    for impl in libsha.implementations():
        if impl.runnable:
            for name in ("SHA256", "SHA256_32b", "SHA256D64_1024"):
                assert f"{name} using the '{impl.name}' SHA256 implementation" in out
    assert any(line.startswith("SHA256 using hashlib.sha256") for line in out)


def test_filter(capsys):
    assert cli.main(["--list", "--filter", "^SHA256_32b$"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out and all(line.startswith("SHA256_32b using") for line in out)
    assert cli.main(["--list", "--filter", "nothing-matches-this"]) == 0
    assert capsys.readouterr().out == ""


def test_bad_options_are_reported(capsys):
    for argv in (["--filter", "("], ["--min-time", "0"], ["--epochs", "0"]):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(argv)
        assert exit_info.value.code == 2
    assert "--filter" in capsys.readouterr().err


def test_a_short_run_prints_the_table(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "shabench", "--filter", "SHA256D64_1024 using the 'standard'", "--min-time", "1", "--epochs", "3"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"Using the '.+' SHA256 implementation", lines[0])
    (row,) = [line for line in lines if "SHA256D64_1024" in line]
    ns, rate, err, total, title = [c.strip() for c in row.strip("|").split("|")]
    assert float(ns) > 0 and float(rate.replace(",", "")) == pytest.approx(1e9 / float(ns), rel=0.01)
    assert re.fullmatch(r"\d+\.\d%( :wavy_dash:)?", err)
    assert title == "`SHA256D64_1024 using the 'standard' SHA256 implementation`"


def test_no_match_is_an_error(capsys):
    assert cli.main(["--filter", "nothing-matches-this"]) == 2
