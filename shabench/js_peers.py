"""IPFS's JavaScript importer (npm's ipfs-unixfs-importer), libsha.ipfs's peer: installed under the
prefix $SHABENCH_IPFS_JS names (tools/build_ipfs_js.sh makes one), asked through its cid.mjs, one
Node process for a list of files. The tests ask the same functions (tests/support/ipfs.py)."""

import json
import os
import shutil
import subprocess

IPFS_JS_ENV = "SHABENCH_IPFS_JS"


def prefix():
    return os.environ.get(IPFS_JS_ENV, "")


def unavailable():
    """None, or why the importer cannot be asked here."""
    where = prefix()
    if not where:
        return f"needs ipfs-unixfs-importer: tools/build_ipfs_js.sh PREFIX, then {IPFS_JS_ENV}=PREFIX"
    if not os.path.isdir(os.path.join(where, "node_modules", "ipfs-unixfs-importer")):
        return f"{IPFS_JS_ENV}={where} holds no ipfs-unixfs-importer (tools/build_ipfs_js.sh installs it)"
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
