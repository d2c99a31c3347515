"""C functions of a loaded library run on an emulated x86-64 CPU with AVX-512 and SHA-NI (Bochs,
through the bochscpu-python package), so that the AVX-512 kernels are checked on any x86-64
machine, this one included when its CPU has no AVX-512.

The emulated CPU runs in long mode at user level over the host's own memory: every page the host
process has mapped is mapped at the same virtual address in the guest, so a function's code, its
constants, the library's globals, the arguments' buffers and the stack are the host's, and what
the function writes is there when it returns. Only code that makes no system call can run this
way (a hash call makes none). The return address is a page of `hlt`: executing it at user level
faults, which ends the call.

Bochs detects its own features through CPUID, so a library loaded here must not have detected
the host's CPU already: load a copy of the file in a process of its own (emulated_rows_check.py).
"""

from __future__ import annotations

import ctypes
import mmap
import os
import subprocess
import tempfile
from pathlib import Path

PAGE = 4096
_SHIM_SOURCE = Path(__file__).with_name("bochs_glibc_shim.c")
_ARGUMENT_REGISTERS = ("rdi", "rsi", "rdx", "rcx", "r8", "r9")
_GP_FAULT = 13
# Bochs's physical addresses are narrower than the host's virtual ones: the guest's frames are
# numbered from here, one per host page, in the order they are first seen.
_FIRST_FRAME = 0x1000_0000
_PML4 = 0x10_0000


class Unavailable(Exception):
    """bochscpu-python cannot be imported here: the reason, for a test's skip."""


class EmulationFault(Exception):
    """The emulated code raised a CPU exception (vector, address) other than the return."""


def _import_bochscpu():
    """bochscpu, loading the shim first where its wheel needs glibc 2.38's C23 names (its 0.4.0
    wheel is tagged manylinux_2_28 but calls __isoc23_strtoull and __isoc23_sscanf)."""
    try:
        import bochscpu  # noqa: F401
    except ImportError as error:
        if "__isoc23_" not in str(error):
            raise Unavailable(f"bochscpu-python is not installed ({error}); pip install '.[test]'") from error
        folder = Path(tempfile.mkdtemp(prefix="libsha-bochs-"))
        shim = folder / "shim.so"
        built = subprocess.run(["cc", "-shared", "-fPIC", "-O2", str(_SHIM_SOURCE), "-o", str(shim)],
                               capture_output=True, text=True)
        if built.returncode != 0:
            raise Unavailable(f"bochscpu needs glibc 2.38's C23 names and the shim did not build: {built.stderr}")
        ctypes.CDLL(str(shim), mode=ctypes.RTLD_GLOBAL)
    import bochscpu
    import bochscpu.cpu
    import bochscpu.memory

    return bochscpu


def runs_here() -> bool:
    """Whether the emulator can run on this machine: x86-64 Linux with bochscpu-python installed."""
    import importlib.util
    import platform
    import sys

    return sys.platform == "linux" and platform.machine() == "x86_64" and importlib.util.find_spec("bochscpu") is not None


def _fs_base() -> int:
    """The host thread's FS base: the guest's thread pointer (glibc's TLS and stack guard)."""
    libc = ctypes.CDLL(None, use_errno=True)
    value = ctypes.c_uint64()
    libc.syscall.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p]
    arch_get_fs, sys_arch_prctl = 0x1003, 158
    if libc.syscall(sys_arch_prctl, arch_get_fs, ctypes.byref(value)) != 0:
        raise OSError(ctypes.get_errno(), "arch_prctl(ARCH_GET_FS)")
    return value.value


def _host_regions():
    """The host's readable mappings in the lower half, (start, end)."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if end <= 1 << 47 and fields[1].startswith("r"):
                yield start, end


class Emulator:
    """An emulated x86-64 CPU (Bochs's model: AVX-512, SHA-NI, BMI2 and the rest) that runs C
    functions over this process's memory; `call` is one function call under the SysV ABI."""

    def __init__(self, arena_bytes: int = 64 << 20):
        self._bochs = _import_bochscpu()
        self._stack = ctypes.create_string_buffer(1 << 20)
        self._arena = mmap.mmap(-1, arena_bytes)
        self._arena_at = ctypes.addressof(ctypes.c_char.from_buffer(self._arena))
        self._used = 0
        self._halt = mmap.mmap(-1, PAGE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
        self._halt.write(b"\xf4" * PAGE)
        self._halt_at = ctypes.addressof(ctypes.c_char.from_buffer(self._halt))
        self._fs = _fs_base()
        self._tables = self._map_host()

    def _map_host(self):
        """Page tables mapping every page the host has now (the library, libc, the arena, the
        stack) at its own address; the guest's frames numbered in order."""
        memory = self._bochs.memory
        table = memory.PageMapLevel4Table()
        frame = _FIRST_FRAME
        for start, end in _host_regions():
            for va in range(start, end, PAGE):
                memory.page_insert(frame, va)
                table.insert(va, frame, 1)
                frame += PAGE
        for hva, gpa in table.commit(_PML4):
            memory.page_insert(gpa, hva)
        return table  # its pages are the guest's page tables: freed with it

    def buffer(self, data: bytes | int) -> ctypes.Array:
        """A buffer the guest can reach (in the arena mapped at the start): a copy of data, or that
        many zero bytes. Anything the emulated code reads or writes must be in one."""
        size = data if isinstance(data, int) else len(data)
        at = self._used
        self._used = (at + max(size, 1) + 63) & ~63
        if self._used > len(self._arena):
            raise MemoryError("the emulator's arena is full: make it larger")
        buf = (ctypes.c_char * max(size, 1)).from_buffer(self._arena, at)
        ctypes.memset(buf, 0, max(size, 1))
        if not isinstance(data, int):
            ctypes.memmove(buf, data, size)
        return buf

    def array(self, ctype, values) -> ctypes.Array:
        """A C array of ctype holding values, in the arena."""
        values = list(values)
        raw = self.buffer(ctypes.sizeof(ctype) * len(values))
        array = (ctype * len(values)).from_buffer(raw) if values else raw
        for i, value in enumerate(values):
            array[i] = value
        return array

    def struct(self, ctype):
        """A zeroed ctypes structure of that type, in the arena."""
        return ctype.from_buffer(self.buffer(ctypes.sizeof(ctype)))

    def reset(self):
        """Every buffer given out before is free again (and must no longer be used)."""
        self._used = 0

    def _segment(self, selector, attr, base=0):
        segment = self._bochs.Segment()
        segment.present, segment.selector, segment.base, segment.limit, segment.attr = True, selector, base, 0xFFFFFFFF, attr
        return segment

    def call(self, function, *args: int) -> int:
        """Runs function(*args) (a ctypes function or an address; integer and pointer arguments,
        the seventh on in the stack) and returns RAX as an unsigned 64-bit value."""
        bochs = self._bochs
        state = bochs.State()
        bochs.cpu.set_long_mode(state)
        state.cr3 = _PML4
        state.cr4 = state.cr4 | (1 << 18) | (1 << 10) | (1 << 9)  # OSXSAVE, OSXMMEXCPT, OSFXSR
        state.efer = state.efer | (1 << 11)  # NXE
        state.xcr0 = 0xE7  # x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM: the OS saves them all
        top = (ctypes.addressof(self._stack) + len(self._stack) - 64) & ~15
        stacked = args[len(_ARGUMENT_REGISTERS):]
        top -= 8 * (len(stacked) + len(stacked) % 2)
        for i, value in enumerate(stacked):
            ctypes.c_uint64.from_address(top + 8 * i).value = value & (2**64 - 1)
        top -= 8  # as after a call: the return address, then the arguments from a 16-byte boundary
        ctypes.c_uint64.from_address(top).value = self._halt_at
        state.rsp = top
        state.rip = function if isinstance(function, int) else ctypes.cast(function, ctypes.c_void_p).value
        for register, value in zip(_ARGUMENT_REGISTERS, args):
            setattr(state, register, value & (2**64 - 1))
        state.cs = self._segment(0x33, 0x22FB)
        data = self._segment(0x2B, 0xCF3)
        state.ds = state.ss = state.es = state.gs = data
        state.fs = self._segment(0x2B, 0xCF3, self._fs)
        session = bochs.Session()

        def missing_page(gpa):
            raise EmulationFault(f"the guest touched frame {gpa:#x}, which maps no host page")

        session.missing_page_handler = missing_page
        session.cpu.state = state
        faults = []
        hook = bochs.Hook()

        def on_exception(sess, cpu, vector, error):
            rip = sess.cpu.state.rip
            if not (vector == _GP_FAULT and rip == self._halt_at + 1):
                faults.append((vector, error, rip))
            sess.stop()

        hook.exception = on_exception
        session.run([hook])
        if faults:
            vector, error, rip = faults[0]
            raise EmulationFault(f"CPU exception {vector} (error code {error}) at {rip:#x}")
        return session.cpu.state.rax


def library_copy(path: str | os.PathLike, folder: str | os.PathLike) -> ctypes.CDLL:
    """A copy of the library file at path, loaded: its own globals, so its CPU detection runs in
    the emulator and not on the host's earlier call."""
    target = Path(folder) / ("emulated-" + Path(path).name)
    target.write_bytes(Path(path).read_bytes())
    return ctypes.CDLL(str(target))
