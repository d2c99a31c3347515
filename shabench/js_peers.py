"""The JavaScript peers, installed under the prefix $SHABENCH_JS_PEERS names (tools/build_js_peers.sh
makes one): IPFS's importer (npm's ipfs-unixfs-importer), libsha.ipfs's peer, asked through cid.mjs
and add.mjs; Filecoin's data-segment (npm's @web3-storage/data-segment), libsha.filecoin's, through
commp.mjs. One Node process for a list of files. The tests ask the same functions
(tests/support/js_peers.py)."""

import json
import os
import shutil
import subprocess

JS_PEERS_ENV = "SHABENCH_JS_PEERS"


def prefix():
    return os.environ.get(JS_PEERS_ENV, "")


def unavailable(package="ipfs-unixfs-importer"):
    """None, or why the package (ipfs-unixfs-importer, @web3-storage/data-segment) cannot be asked here."""
    where = prefix()
    if not where:
        return f"needs {package}: tools/build_js_peers.sh PREFIX, then {JS_PEERS_ENV}=PREFIX"
    if not os.path.isdir(os.path.join(where, "node_modules", *package.split("/"))):
        return f"{JS_PEERS_ENV}={where} holds no {package} (tools/build_js_peers.sh installs it)"
    if shutil.which("node") is None:
        return "needs Node.js (Debian's nodejs)"
    return None


def importer_cids(paths, profile="unixfs-v0-2015", chunk_size=None, max_links=None, raw_leaves=None,
                  cid_version=None, timed=False):
    """Each file's CID by the importer, with libsha.ipfs's parameters (None: the profile's); with
    timed, (CID, the importer's seconds) each."""
    options = {"profile": profile, "time": timed}
    for key, value in (("chunk", chunk_size), ("links", max_links), ("raw", raw_leaves), ("version", cid_version)):
        if value is not None:
            options[key] = value
    done = subprocess.run(["node", os.path.join(prefix(), "cid.mjs"), json.dumps(options), *map(str, paths)],
                          capture_output=True, text=True, check=True, timeout=600)
    lines = done.stdout.split("\n")[: len(paths)]
    return [(line.split()[0], float(line.split()[1])) for line in lines] if timed else lines


def importer_add(paths, profile="unixfs-v0-2015", wrap=False, hidden=False):
    """{path: CID} of what the importer adds of these files and directories (add.mjs walks them as
    `ipfs add -r` does); the wrapping directory's path is ""."""
    options = {"profile": profile, "wrap": wrap, "hidden": hidden}
    done = subprocess.run(["node", os.path.join(prefix(), "add.mjs"), json.dumps(options), *map(str, paths)],
                          capture_output=True, text=True, check=True, timeout=600)
    return {line[line.index(" ") + 1 :]: line.split(" ")[0] for line in done.stdout.split("\n") if line}


DATA_SEGMENT = "@web3-storage/data-segment"


def data_segment_commitments(paths, timed=False):
    """Each file's (commP, padded size, CID v1, CID v2) by data-segment's Piece.fromPayload; with
    timed, the seconds it took after them."""
    done = subprocess.run(["node", os.path.join(prefix(), "commp.mjs"), "time" if timed else "-", *map(str, paths)],
                          capture_output=True, text=True, check=True, timeout=1200)
    out = []
    for line in done.stdout.split("\n")[: len(paths)]:
        words = line.split()
        made = (bytes.fromhex(words[0]), int(words[1]), words[2], words[3])
        out.append(made + (float(words[4]),) if timed else made)
    return out
