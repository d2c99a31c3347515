"""shabench: libsha's benchmark runner, nanobench-style tables of every implementation."""
