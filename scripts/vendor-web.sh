#!/usr/bin/env bash
# The browser files of the web door (docs/web.md), taken from the npm registry at the pinned
# versions below and copied unchanged into door/web/static/vendor/, with MANIFEST.txt: each
# package's integrity as npm reports it, and each file's sha256 (a test checks them).
# The fonts are the one change: DejaVu Sans Mono's TTFs (673 KB) are cut down to the
# characters the door's screens draw (door/term/width.py's ONE_CELL and printable ASCII)
# and saved as WOFF2 by fonttools' pyftsubset, installed at the pinned versions below into a
# throwaway virtualenv (brotli is what WOFF2 compresses with).
# To update: change a version, run `bash scripts/vendor-web.sh`, try the play page, commit.
set -euo pipefail
XTERM=6.0.0        # @xterm/xterm: the terminal (MIT)
FIT=0.11.0         # @xterm/addon-fit: its size from the window's (MIT)
DEJAVU=2.37.3      # dejavu-fonts-ttf: DejaVu Sans Mono (Bitstream Vera licence + public domain)
FONTTOOLS=4.68.0   # fonttools (PyPI, MIT): pyftsubset
BROTLI=1.2.1       # brotli (PyPI, MIT): WOFF2's compression
PYTHON="${PYTHON:-python3}"

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
cp "$dejavu/LICENSE" "$dest/fonts/LICENSE"

"$PYTHON" -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install -q "fonttools==$FONTTOOLS" "brotli==$BROTLI"
"$PYTHON" -c 'import sys; sys.path.insert(0, "."); from door.term.width import ONE_CELL
print("".join(sorted(set(map(chr, range(0x20, 0x7f))) | ONE_CELL)))' > "$tmp/chars.txt"
for face in DejaVuSansMono DejaVuSansMono-Bold; do
  # Every name record kept: the copyright and licence notices travel with the font.
  "$tmp/venv/bin/pyftsubset" "$dejavu/ttf/$face.ttf" --text-file="$tmp/chars.txt" \
    --flavor=woff2 --output-file="$dest/fonts/$face.woff2" --layout-features='' \
    --no-hinting --name-IDs='*' --name-languages='*' --name-legacy --notdef-outline
done

python3 - "$tmp/packed.json" "$dest" <<'PY'
import hashlib, json, sys
from pathlib import Path

packed, dest = json.loads(Path(sys.argv[1]).read_text()), Path(sys.argv[2])
lines = ["# Written by scripts/vendor-web.sh: do not edit by hand.", "# package version integrity"]
lines += [f"package {p['name']} {p['version']} {p['integrity']}" for p in packed]
lines.append("# fonts/*.woff2: the package's TTFs cut to the door's characters by pyftsubset")
lines.append("# sha256 file")
for path in sorted(p for p in dest.rglob("*") if p.is_file() and p.name != "MANIFEST.txt"):
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    lines.append(f"file {digest} {path.relative_to(dest).as_posix()}")
(dest / "MANIFEST.txt").write_text("\n".join(lines) + "\n")
PY
echo "vendored into $dest:"
cat "$dest/MANIFEST.txt"
