"""ipfs-unixfs-importer's CIDs, through shabench's peer (shabench/ipfs_peers.py; no copy here)."""

from shabench.ipfs_peers import importer_add, importer_cids, unavailable

__all__ = ["importer_add", "importer_cids", "unavailable"]
