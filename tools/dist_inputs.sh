#!/usr/bin/env bash
# What tools/check_dist.sh, tools/cross_wheels.sh and tools/foreign_wheels.sh start from: a venv with
# the release extra's tools (DIR/tools) and the sdist of this checkout (DIR/sdist/libsha-*.tar.gz).
# .ci/run makes them once and names DIR in LIBSHA_DIST_INPUTS for the three; alone, each makes its own.
# A DIR already made (DIR/ready) is used as it is.
#   tools/dist_inputs.sh DIR
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=$(realpath -m "${1:?usage: tools/dist_inputs.sh DIR}")
[ -f "$dir/ready" ] && exit 0
rm -rf "$dir" && mkdir -p "$dir"
python3 -m venv "$dir/tools"
"$dir/tools/bin/pip" install -q -r <(python3 "$repo/tools/extra_requirements.py" release)
"$dir/tools/bin/python" -m build --sdist -o "$dir/sdist" "$repo" >/dev/null
ls "$dir"/sdist/libsha-*.tar.gz >/dev/null
touch "$dir/ready"
