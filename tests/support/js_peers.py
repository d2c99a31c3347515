"""The JavaScript peers' answers (IPFS's importer, Filecoin's data-segment), through shabench's
(shabench/js_peers.py; no copy here)."""

from shabench.js_peers import DATA_SEGMENT, data_segment_commitments, importer_add, importer_cids, unavailable

__all__ = ["DATA_SEGMENT", "data_segment_commitments", "importer_add", "importer_cids", "unavailable"]
