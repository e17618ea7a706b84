#!/usr/bin/env bash
# The browser files of the web door (docs/web.md), taken from the npm registry at the pinned
# versions below and copied unchanged into door/web/static/vendor/, with MANIFEST.txt: each
# package's integrity as npm reports it, and each copied file's sha256 (a test checks them).
# To update: change a version, run `bash scripts/vendor-web.sh`, try the play page, commit.
set -euo pipefail
XTERM=6.0.0        # @xterm/xterm: the terminal (MIT)
FIT=0.11.0         # @xterm/addon-fit: its size from the window's (MIT)
DEJAVU=2.37.3      # dejavu-fonts-ttf: DejaVu Sans Mono (Bitstream Vera licence + public domain)

cd "$(dirname "$0")/.."
dest=door/web/static/vendor
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --json "@xterm/xterm@$XTERM" "@xterm/addon-fit@$FIT" \
  "dejavu-fonts-ttf@$DEJAVU" > packed.json)
for tgz in "$tmp"/*.tgz; do
  mkdir -p "${tgz%.tgz}" && tar xzf "$tgz" -C "${tgz%.tgz}"
done
xterm="$tmp/xterm-xterm-$XTERM/package" fit="$tmp/xterm-addon-fit-$FIT/package"
dejavu="$tmp/dejavu-fonts-ttf-$DEJAVU/package"

rm -rf "$dest" && mkdir -p "$dest/xterm" "$dest/fonts"
cp "$xterm/lib/xterm.js" "$xterm/css/xterm.css" "$dest/xterm/"
cp "$xterm/LICENSE" "$dest/xterm/LICENSE"
cp "$fit/lib/addon-fit.js" "$dest/xterm/"
cp "$fit/LICENSE" "$dest/xterm/LICENSE-addon-fit"
cp "$dejavu/ttf/DejaVuSansMono.ttf" "$dejavu/ttf/DejaVuSansMono-Bold.ttf" "$dest/fonts/"
cp "$dejavu/LICENSE" "$dest/fonts/LICENSE"

python3 - "$tmp/packed.json" "$dest" <<'PY'
import hashlib, json, sys
from pathlib import Path

packed, dest = json.loads(Path(sys.argv[1]).read_text()), Path(sys.argv[2])
lines = ["# Written by scripts/vendor-web.sh: do not edit by hand.", "# package version integrity"]
lines += [f"package {p['name']} {p['version']} {p['integrity']}" for p in packed]
lines.append("# sha256 file")
for path in sorted(p for p in dest.rglob("*") if p.is_file() and p.name != "MANIFEST.txt"):
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    lines.append(f"file {digest} {path.relative_to(dest).as_posix()}")
(dest / "MANIFEST.txt").write_text("\n".join(lines) + "\n")
PY
echo "vendored into $dest:"
cat "$dest/MANIFEST.txt"
