"""nanobench's table: ns/byte | byte/s | err% | total | benchmark."""

from tabulate import tabulate

UNSTABLE = 0.05  # nanobench marks rows whose err% reaches 5 %
HEADERS = ["ns/byte", "byte/s", "err%", "total", "benchmark"]
ALIGN = ("right", "right", "right", "right", "left")


def format_row(title, median_ns, err, total_s):
    err_cell = f"{err * 100:.1f}%"
    if err >= UNSTABLE:
        err_cell += " :wavy_dash:"
    return [f"{median_ns:,.2f}", f"{1e9 / median_ns:,.2f}", err_cell, f"{total_s:,.2f}", f"`{title}`"]


def render(rows):
    """rows: (title, Measurement) pairs. Returns the Markdown table and any hints."""
    body = [format_row(title, m.median, m.err, m.total_s) for title, m in rows]
    text = tabulate(body, headers=HEADERS, tablefmt="pipe", colalign=ALIGN, disable_numparse=True)
    if any(m.err >= UNSTABLE for _, m in rows):
        text += (
            "\n\n:wavy_dash: unstable (err% >= 5%): the machine was busy or the epochs too short;"
            " try a larger --min-time"
        )
    return text
