"""--plot: ns/byte against message size, one line per implementation (matplotlib, optional)."""

from collections import defaultdict


def plot_sweep(rows, path, context):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("shabench: --plot needs matplotlib: pip install 'libsha[plot]'") from None
    lines = defaultdict(list)
    for b, m in rows:
        lines[b.runner].append((b.unit_bytes, m.median))
    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=120)
    for runner, points in lines.items():
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=runner)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("ns/byte (lower is faster)")
    ax.set_title(f"SHA-256 by message size: {context['cpu']}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
