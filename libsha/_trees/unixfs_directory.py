"""What `ipfs add -r` and `-w` add, as Kubo walks it: each path given is taken by its base name (in
the order of those names); a directory's entries in the order of their names' bytes, hidden ones
(a name starting with ".") left out unless asked for; a symlink as a UnixFS symlink, never
followed; a FIFO, socket or device inside a directory refused, as Kubo refuses it (a FIFO given
itself is read). Each added path gives (name, node) events in Kubo's order: the files and symlinks
as they are added, then the directories after all of them, each after those inside it.

Directories are plain UnixFS directories. One that Kubo would shard (a HAMT: its estimated block
over 256 KiB, by the profile's estimate) is refused, naming it: sharding is not built yet."""

from __future__ import annotations

import os
import stat

from .dag_pb import Node, directory_node, link_size, symlink_node

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

SHARD_THRESHOLD = 256 << 10  # boxo's HAMTShardingSize, and the JS importer's shardSplitThresholdBytes
Event = tuple[bytes, Node]  # a name as Kubo prints it (its bytes), and what was added there


class ShardingError(ValueError):
    """A directory too large for one plain block: Kubo would shard it, which libsha does not yet."""


def add_paths(paths: list[str], file_dag: Callable[[str | bytes], Node], version: int, wrap: bool, hidden: bool,
              estimate: str) -> list[Event]:
    """The events of adding `paths` (each a file, a symlink, a FIFO or a directory), wrapped in one
    directory or each alone."""
    named = sorted((_base_name(path), path) for path in paths)
    for (name, path), (again, other) in zip(named, named[1:]):
        if name == again:
            raise ValueError(f"two paths named {os.fsdecode(name)!r}: {path!r} and {other!r}")
    walk = _Walk(file_dag, version, hidden, estimate)
    if wrap:
        return walk.added(b"", {name: path for name, path in named}, top=True)
    events: list[Event] = []
    for name, path in named:
        events += walk.added(name, {name: path}, top=False)
    return events


def _base_name(path: str) -> bytes:
    if os.fsdecode(path) == ".":  # "." is the current directory's own name
        return os.path.basename(os.fsencode(os.path.realpath(os.getcwd())))
    return os.path.basename(os.path.normpath(os.fsencode(path)))


class _Walk:
    def __init__(self, file_dag: Callable[[str | bytes], Node], version: int, hidden: bool, estimate: str) -> None:
        self.file_dag, self.version, self.hidden, self.estimate = file_dag, version, hidden, estimate

    def added(self, prefix: bytes, entries: dict[bytes, str], top: bool) -> list[Event]:
        """One of Kubo's adds: the entries (name: path) under `prefix`, then their directories.
        Wrapped (top), the entries are a directory of their own, named prefix."""
        files: list[Event] = []
        dirs: list[Event] = []
        if top:
            made = {name: self._entry(path, name, files, dirs, top=True) for name, path in entries.items()}
            dirs.append((prefix, self._directory(made, prefix)))
            return files + dirs
        ((name, path),) = entries.items()
        self._entry(path, name, files, dirs, top=True)
        return files + dirs

    def _entry(self, path: str | bytes, name: bytes, files: list[Event], dirs: list[Event], top: bool) -> Node:
        mode = os.lstat(path).st_mode
        if stat.S_ISDIR(mode):
            with os.scandir(os.fsencode(path)) as listing:
                names = sorted(e.name for e in listing if self.hidden or not e.name.startswith(b"."))
            children: dict[bytes, Node] = {}
            inner: list[Event] = []
            for child in names:
                children[child] = self._entry(os.path.join(os.fsencode(path), child), _join(name, child), files,
                                              inner, top=False)
            node = self._directory(children, name)
            dirs += inner + [(name, node)]  # post-order; the names were walked sorted, as Kubo lists them
            return node
        if stat.S_ISLNK(mode):
            node = symlink_node(os.readlink(os.fsencode(path)), self.version)
        elif stat.S_ISREG(mode) or (top and stat.S_ISFIFO(mode)):
            node = self.file_dag(path)
        else:
            raise ValueError(f"unrecognized file type for {os.fsdecode(path)}: {stat.filemode(mode)}")
        files.append((name, node))
        return node

    def _directory(self, entries: dict[bytes, Node], name: bytes) -> Node:
        if self.estimate == "links-bytes":  # boxo's legacy estimate: names and CIDs alone
            size = sum(len(child) + len(node.cid) for child, node in entries.items())
        else:  # the block's exact size
            size = 4 + sum(link_size(child, node) for child, node in entries.items())
        if size > SHARD_THRESHOLD:
            raise ShardingError(f"directory {os.fsdecode(name) or '(the wrapping one)'!r} has {len(entries)} "
                                f"entries ({self.estimate} estimate {size} > {SHARD_THRESHOLD}): Kubo would shard "
                                "it (a HAMT), which libsha does not build yet")
        return directory_node(entries, self.version)


def _join(parent: bytes, child: bytes) -> bytes:
    return parent + b"/" + child if parent else child

