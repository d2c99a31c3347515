"""Cycle models of every kernel, for CPU families this machine is not: each kernel's block loop read
from its machine code and timed by llvm-mca under each family's scheduling model, beside the bound
its essential instructions set and the stack operands it spills to. tools/kernel_cycles.py prints
them; `shabench --group model` shows them beside the figures measured on the running CPU.

- builds: libsha's kernels built as the library builds them (gcc, clang, the aarch64 cross gcc),
  and the peers' (isa-l_crypto, hashtree) from their prefixes;
- disasm: llvm-objdump's text as functions, instructions and natural loops;
- rounds: the SHA-256 rounds a stretch of code does, per lane, from its instructions;
- regions: a kernel's block loop, its nested passes written out;
- mca: llvm-mca's cycles a trip and the bound;
- table: the rows the tool and shabench print.
"""
