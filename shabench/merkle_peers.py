"""The Merkle trees' peers outside this process: libtorrent 2's create_torrent (v2 only), run by
the system Python that Debian's python3-libtorrent binds, its hashing phase timed there."""

import functools
import os
import shutil
import subprocess

# argv: path, piece length. Prints the pieces root ("-" for none), the piece layer (hex) and the
# seconds set_piece_hashes took (libtorrent's hashing phase).
LIBTORRENT_SCRIPT = r"""
import os, sys, time
import libtorrent as lt
path, piece_length = sys.argv[1], int(sys.argv[2])
fs = lt.file_storage()
lt.add_files(fs, path)
t = lt.create_torrent(fs, piece_length, flags=lt.create_torrent.v2_only)
start = time.perf_counter()
lt.set_piece_hashes(t, os.path.dirname(os.path.abspath(path)))
seconds = time.perf_counter() - start
info = t.generate()
node = info[b"info"][b"file tree"][os.path.basename(path).encode()][b""]
root = node.get(b"pieces root")
layer = info.get(b"piece layers", {}).get(root, b"") if root else b""
print(root.hex() if root else "-", layer.hex() or "", seconds)
"""


@functools.lru_cache(maxsize=None)
def system_python_with_libtorrent():
    """The first system Python that imports libtorrent 2, or None."""
    for candidate in ("/usr/bin/python3", shutil.which("python3")):
        if candidate and os.path.exists(candidate):
            probe = subprocess.run([candidate, "-c", "import libtorrent as lt; assert int(lt.__version__[0]) >= 2"],
                                   capture_output=True)
            if probe.returncode == 0:
                return candidate
    return None


def libtorrent_tree(path, piece_length):
    """(pieces root or None, piece layer, hashing seconds) of the file, by libtorrent."""
    out = subprocess.run([system_python_with_libtorrent(), "-c", LIBTORRENT_SCRIPT, str(path), str(piece_length)],
                         capture_output=True, text=True, check=True).stdout.split()
    if len(out) == 2:  # an empty layer prints nothing between the root and the seconds
        out.insert(1, "")
    return (None if out[0] == "-" else bytes.fromhex(out[0])), bytes.fromhex(out[1]), float(out[2])
