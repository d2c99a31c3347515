"""A kernel's machine code as llvm-objdump prints it: its functions, their instructions and their loops.

Each function is read from the object or library that holds it (never from the compiler's assembly
text, so a peer built with nasm reads the same way). Its loops are the natural loops of its control
flow: a branch back to a block that dominates it closes one, so a jump back into code shared by two
paths is no loop. Which loop is a kernel's block loop is regions.py's question.
"""

import re
import shutil
import subprocess
from dataclasses import dataclass, field

# LLVM 19's, as Debian installs it (llvm-19 puts llvm-objdump-19 on PATH, the plain name under its own bin/).
OBJDUMP_PATHS = ("llvm-objdump-19", "/usr/lib/llvm-19/bin/llvm-objdump")
_FUNCTION = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
_INSTRUCTION = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)(?:\s+(.*?))?\s*$")
_TARGET = re.compile(r"^(?:[a-z0-9]+,\s*)*(?:#\d+,\s*)?0x([0-9a-f]+)\b")
_X86_BRANCH = re.compile(r"^(j[a-z]+|loop[a-z]*)$")
_ARM_BRANCH = re.compile(r"^(b|b\.[a-z]+|cbn?z|tbn?z)$")
_CALL = re.compile(r"^(call[a-z]*|bl|blr)$")


@dataclass
class Instruction:
    address: int
    mnemonic: str
    operands: str
    arch: str = "x86"  # or "arm" (AArch64)

    def text(self):
        """The instruction as an assembler reads it: no address, no objdump comment, no symbol hint."""
        # x86's comments start with '#'; on ARM '#' is an immediate and comments start with '//'.
        plain = self.operands.split("#", 1)[0] if self.arch == "x86" else re.sub(r"\s*//.*$", "", self.operands)
        operands = re.sub(r"\s*<[^>]*>", "", plain).strip()
        return f"{self.mnemonic}\t{operands}" if operands else self.mnemonic


@dataclass
class Function:
    name: str
    arch: str
    instructions: list = field(default_factory=list)

    def loops(self):
        """The natural loops (a back edge's header dominates its source), each as the sorted indices
        of its instructions; loops sharing a header are one."""
        return natural_loops(self.instructions)


def objdump():
    return next((path for path in map(shutil.which, OBJDUMP_PATHS) if path), None)


def is_branch(ins):
    pattern = _X86_BRANCH if ins.arch == "x86" else _ARM_BRANCH
    return bool(pattern.match(ins.mnemonic))


def is_unconditional(ins):
    return ins.mnemonic in ("jmp", "jmpq", "b")


def is_return(ins):
    return ins.mnemonic in ("ret", "retq", "ud2")


def is_call(ins):
    return bool(_CALL.match(ins.mnemonic))


def branch_target(ins):
    match = _TARGET.match(ins.operands.split("<", 1)[0].strip().replace("$", ""))
    if ins.arch == "arm":  # b.ne 0x40, cbz x1, 0x40, tbz w0, #3, 0x40: the target is the last operand
        last = ins.operands.split("<", 1)[0].split(",")[-1].strip()
        match = re.match(r"^0x([0-9a-f]+)$", last)
    return int(match.group(1), 16) if match else None


def read_functions(path, wanted, arch="x86"):
    """The functions of the object or library at path whose names `wanted(name)` accepts, by name."""
    tool = objdump()
    if tool is None:
        raise FileNotFoundError("llvm-objdump (Debian llvm-19) is not installed")
    args = [tool, "-d", "--no-show-raw-insn", str(path)]
    if arch == "x86":
        args[2:2] = ["--x86-asm-syntax=att"]
    text = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    # An assembler's local labels (nasm's `lloop`) are symbols too, and objdump starts a new heading at each:
    # a heading that is not a function's continues the function before it.
    table = subprocess.run([tool, "-t", str(path)], check=True, capture_output=True, text=True).stdout
    typed = {line.split()[-1] for line in table.splitlines() if " F " in line}
    functions, current = {}, None
    for line in text.splitlines():
        head = _FUNCTION.match(line)
        if head:
            name = head.group(2)
            if current is not None and name not in typed and typed:
                continue
            current = Function(name, arch) if wanted(name) else None
            if current is not None:
                functions[name] = current
            continue
        if current is None:
            continue
        body = _INSTRUCTION.match(line)
        if body:
            current.instructions.append(Instruction(int(body.group(1), 16), body.group(2), body.group(3) or "", arch))
    return functions


def _blocks(instructions):
    """Basic blocks as (first, last) instruction indices, and each block's successors."""
    index = {ins.address: i for i, ins in enumerate(instructions)}
    leaders = {0}
    for i, ins in enumerate(instructions):
        if is_branch(ins) or is_return(ins):
            leaders.add(i + 1)
            target = branch_target(ins) if is_branch(ins) else None
            if target in index:
                leaders.add(index[target])
    starts = sorted(x for x in leaders if x < len(instructions))
    blocks = [(s, (starts[k + 1] if k + 1 < len(starts) else len(instructions)) - 1) for k, s in enumerate(starts)]
    block_of = {s: k for k, (s, _) in enumerate(blocks)}
    successors = []
    for k, (_, last) in enumerate(blocks):
        ins, out = instructions[last], set()
        if is_branch(ins):
            target = branch_target(ins)
            if target in index:
                out.add(block_of[index[target]])
            if not is_unconditional(ins) and k + 1 < len(blocks):
                out.add(k + 1)
        elif not is_return(ins) and k + 1 < len(blocks):
            out.add(k + 1)
        successors.append(out)
    return blocks, successors


def natural_loops(instructions):
    if not instructions:
        return []
    blocks, successors = _blocks(instructions)
    n = len(blocks)
    reachable, stack = {0}, [0]
    while stack:
        for s in successors[stack.pop()]:
            if s not in reachable:
                reachable.add(s)
                stack.append(s)
    predecessors = [set() for _ in range(n)]
    for k, out in enumerate(successors):
        for s in out:
            if k in reachable:  # padding after a jump reaches nothing that matters
                predecessors[s].add(k)
    everything = frozenset(range(n))
    dominators = [everything] * n
    dominators[0] = frozenset([0])
    changed = True
    while changed:
        changed = False
        for k in sorted(reachable - {0}):
            preds = [dominators[p] for p in predecessors[k]]
            new = (frozenset.intersection(*preds) if preds else frozenset()) | {k}
            if new != dominators[k]:
                dominators[k], changed = new, True
    bodies = {}
    for source in sorted(reachable):
        for header in successors[source]:
            if header in dominators[source]:  # a back edge
                body, stack = {header, source}, [source] if source != header else []
                while stack:
                    for p in predecessors[stack.pop()]:
                        if p not in body:
                            body.add(p)
                            stack.append(p)
                bodies.setdefault(header, set()).update(body)
    return [sorted(i for k in sorted(body) for i in range(blocks[k][0], blocks[k][1] + 1))
            for _, body in sorted(bodies.items())]
