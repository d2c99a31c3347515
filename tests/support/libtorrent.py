"""libtorrent 2's answer for BEP 52, from the system Python Debian's python3-libtorrent binds
(shabench/merkle_peers.py runs it; the tests ask the same function, no copy)."""

from shabench.merkle_peers import libtorrent_tree, system_python_with_libtorrent


def unavailable():
    """None, or why libtorrent cannot be asked here."""
    return None if system_python_with_libtorrent() else "needs python3-libtorrent (libtorrent 2) for the system Python"


def tree(path, piece_length):
    """(pieces root or None, piece layer) of the file at path, by libtorrent's create_torrent."""
    root, layer, _ = libtorrent_tree(path, piece_length)
    return root, layer
