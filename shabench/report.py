"""Output formats: nanobench's table (plain or as Markdown with a header), CSV, JSON; and --compare."""

import csv
import io
import json

from tabulate import tabulate

SCHEMA = "shabench/1"
UNSTABLE = 0.05  # nanobench marks rows whose err% reaches 5 %
HEADERS = ["ns/byte", "byte/s", "err%", "total", "benchmark"]
ALIGN = ("right", "right", "right", "right", "left")
UNSTABLE_HINT = (":wavy_dash: unstable (err% >= 5%): the machine was busy or the epochs too short;"
                 " try a larger --min-time or more --epochs")


# --stats: EOS's columns, the time of one call (one iteration) over the epochs, in ns.
STATS_HEADERS = ["avg ns/op", "min ns/op", "max ns/op"]


def call_stats(benchmark, measurement):
    """The average, fastest and slowest epoch's time per call (iteration), in nanoseconds."""
    per_call = [ns * max(benchmark.unit_bytes, 1) for ns in measurement.per_unit_ns]
    return sum(per_call) / len(per_call), min(per_call), max(per_call)


def format_row(title, median_ns, err, total_s):
    err_cell = f"{err * 100:.1f}%"
    if err >= UNSTABLE:
        err_cell += " :wavy_dash:"
    return [f"{median_ns:,.2f}", f"{1e9 / median_ns:,.2f}", err_cell, f"{total_s:,.2f}", f"`{title}`"]


def render(rows, stats=False):
    """rows: (Benchmark, Measurement) pairs. The Markdown pipe table, and its hint if any row is unstable;
    with stats, EOS's time per call (average, minimum, maximum over the epochs) before the title."""
    body = [format_row(b.title, m.median, m.err, m.total_s) for b, m in rows]
    headers, align = HEADERS, ALIGN
    if stats:
        for cells, (b, m) in zip(body, rows):
            cells[-1:-1] = [f"{ns:,.1f}" for ns in call_stats(b, m)]
        headers = HEADERS[:-1] + STATS_HEADERS + HEADERS[-1:]
        align = ALIGN[:-1] + ("right",) * len(STATS_HEADERS) + ALIGN[-1:]
    text = tabulate(body, headers=headers, tablefmt="pipe", colalign=align, disable_numparse=True)
    if any(m.err >= UNSTABLE for _, m in rows):
        text += "\n\n" + UNSTABLE_HINT
    return text


# EOS's benchmark table (--format eos): its five columns, one heading a group (EOS's "feature"), whole ns.
EOS_NAME_WIDTH = 40
EOS_TIMES = ("average", "minimum", "maximum")


def render_eos(rows):
    """rows: (Benchmark, Measurement) pairs, as EOS's benchmark prints them: the function (our title), its
    runs (calls an epoch) and the average, fastest and slowest epoch's ns per call."""
    width = max([EOS_NAME_WIDTH] + [len(b.title) + 2 for b, _ in rows])
    runs_width = max([5] + [len(f"{m.iterations:,}") + 1 for _, m in rows])
    lines = [f"{'function':<{width}}{'runs':>{runs_width}}" + "".join(f"{h:>12}   " for h in EOS_TIMES).rstrip(), ""]
    group = None
    for b, m in rows:
        if b.group != group or len(lines) == 2:
            lines += [""] if len(lines) > 2 else []
            lines.append(f"{b.group or 'sizes'}:")
            group = b.group
        lines.append(f"{b.title:<{width}}{m.iterations:>{runs_width},}"
                     + "".join(f"{ns:>12,.0f} ns" for ns in call_stats(b, m)))
    return "\n".join(lines)


def to_records(rows):
    return [
        {
            "name": b.name,
            "implementation": b.runner,
            "title": b.title,
            "unit": "byte",
            "bytes_per_iteration": b.unit_bytes,
            "iterations_per_epoch": m.iterations,
            "epochs": len(m.per_unit_ns),
            "median_ns_per_byte": m.median,
            "err_percent": m.err * 100,
            "total_s": m.total_s,
            "epoch_ns_per_byte": m.per_unit_ns,
            **dict(zip(("average_ns_per_call", "minimum_ns_per_call", "maximum_ns_per_call"), call_stats(b, m))),
        }
        for b, m in rows
    ]


def to_json(context, rows):
    return json.dumps({"schema": SCHEMA, "context": context, "benchmarks": to_records(rows)}, indent=2)


def to_csv(rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["name", "implementation", "ns_per_byte", "bytes_per_s", "err_percent", "total_s", "epochs"])
    for r in to_records(rows):
        writer.writerow([r["name"], r["implementation"], f"{r['median_ns_per_byte']:.6g}",
                         f"{1e9 / r['median_ns_per_byte']:.6g}", f"{r['err_percent']:.3g}", f"{r['total_s']:.4g}",
                         r["epochs"]])
    return out.getvalue()


def to_markdown(header, rows, stats=False):
    lines = ["## shabench", ""] + [f"- {line}" for line in header] + ["", render(rows, stats)]
    return "\n".join(lines)


def load(path):
    """A JSON result written by --format json, checked against the schema."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ValueError(f"{path} is not a shabench JSON result (schema {SCHEMA!r})")
    for record in data.get("benchmarks", []):
        if not {"title", "median_ns_per_byte"} <= set(record):
            raise ValueError(f"{path}: a benchmark record lacks 'title' or 'median_ns_per_byte'")
    return data


def compare(base, rows):
    """Before/after table of the rows both runs have: ratio = now / base (below 1: faster now)."""
    before = {r["title"]: r["median_ns_per_byte"] for r in base["benchmarks"]}
    body, ratios = [], []
    for b, m in rows:
        if b.title in before:
            ratio = m.median / before[b.title]
            ratios.append(ratio)
            body.append([f"{before[b.title]:,.3f}", f"{m.median:,.3f}", f"{ratio:.3f}", f"`{b.title}`"])
    text = tabulate(body, headers=["base ns/byte", "ns/byte", "ratio", "benchmark"], tablefmt="pipe",
                    colalign=("right", "right", "right", "left"), disable_numparse=True)
    only_now = len(rows) - len(body)
    only_base = len(before) - len(body)
    text += f"\n\n{len(body)} rows compared (ratio = now / base, below 1 is faster now)"
    if only_now or only_base:
        text += f"; {only_now} only in this run, {only_base} only in the base"
    return text, ratios
