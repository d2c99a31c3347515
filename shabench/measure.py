"""Epoch timing and nanobench's statistics."""

import statistics
import time
from dataclasses import dataclass, field


@dataclass
class Measurement:
    per_unit_ns: list = field(default_factory=list)  # one value per epoch
    iterations: int = 0  # per epoch
    total_s: float = 0.0  # all epochs

    @property
    def median(self):
        return statistics.median(self.per_unit_ns)

    @property
    def err(self):
        return median_absolute_percent_error(self.per_unit_ns)


def median_absolute_percent_error(values):
    """nanobench's err%: the median over epochs of |x - median| / x (MdAPE), as a fraction."""
    med = statistics.median(values)
    return statistics.median(abs(x - med) / x for x in values)


def _elapsed_ns(run, iterations):
    start = time.perf_counter_ns()
    run(iterations)
    return time.perf_counter_ns() - start


def calibrate(run, min_epoch_ns):
    """The iteration count that makes one epoch last at least min_epoch_ns."""
    run(1)  # warm caches and the branch predictor
    iterations = 1
    while True:
        elapsed = _elapsed_ns(run, iterations)
        if elapsed >= min_epoch_ns:
            return iterations
        if elapsed < min_epoch_ns / 8:
            iterations *= 8
        else:
            iterations = int(iterations * min_epoch_ns * 1.2 / max(elapsed, 1)) + 1


def measure(run, units_per_iteration, epochs, min_epoch_ns, iterations=None, foresee=None):
    """Runs `epochs` epochs of run(iterations); returns ns per unit for each. The iteration count is
    calibrated to min_epoch_ns unless given (EOS's --runs: that many calls an epoch, after one warm call,
    from whose time foresee(seconds) hears how long the epochs will take)."""
    if iterations is None:
        iterations = calibrate(run, min_epoch_ns)
    else:
        warm_ns = _elapsed_ns(run, 1)  # warm, as calibrate does
        if foresee is not None:
            foresee(warm_ns * iterations * epochs / 1e9)
    result = Measurement(iterations=iterations)
    for _ in range(epochs):
        elapsed = _elapsed_ns(run, iterations)
        result.total_s += elapsed / 1e9
        result.per_unit_ns.append(elapsed / (iterations * units_per_iteration))
    return result


class Interleaved:
    """Times several entries in turn, `runs` runs of each per epoch; the first of its rows to be
    measured measures them all, and the others take their figures from it."""

    def __init__(self, entries, runs=1, key=None, self_timed=(), units=None):
        self.entries = entries  # a row's key (its runner) -> make(), which prepares and returns run()
        self.runs = runs
        self._key = key or (lambda row: row.runner)  # rows of one runner and different names: their name
        # Entries whose run() returns the seconds of the phase it measures (a peer in another process
        # timing its own hashing, without the process's start): those seconds are its figure.
        self._self_timed = frozenset(self_timed)
        # Entries whose run() does another count of the rows' units than the rows' own (a peer far
        # slower than the others, timed on fewer of them): that count, to divide by.
        self._units = dict(units or {})
        self._results = None

    def measurement(self, row, epochs, min_time_ms, iterations=None, foresee=None):
        # min_time_ms is not used: an epoch is `runs` whole commands (or `iterations`, when given),
        # counted, not timed to a minimum. foresee(seconds, entries), as measure's, hears the time all the
        # entries will take together.
        runs_per_epoch = iterations or self.runs
        if self._results is None:
            runs = {name: make() for name, make in self.entries.items()}
            start = time.perf_counter_ns()
            for run in runs.values():
                run()  # warm: page cache, the interpreter's files
            if iterations is not None and foresee is not None:
                foresee((time.perf_counter_ns() - start) * runs_per_epoch * epochs / 1e9, len(runs))
            results = {name: Measurement(iterations=runs_per_epoch) for name in runs}
            for _ in range(epochs):
                for name, run in runs.items():
                    start, own = time.perf_counter_ns(), 0.0
                    for _ in range(runs_per_epoch):
                        seconds = run()
                        own += seconds if name in self._self_timed else 0.0
                    elapsed = own * 1e9 if name in self._self_timed else time.perf_counter_ns() - start
                    results[name].total_s += elapsed / 1e9
                    units = self._units.get(name, row.unit_bytes)
                    results[name].per_unit_ns.append(elapsed / (runs_per_epoch * max(units, 1)))
            self._results = results
        return self._results[self._key(row)]
