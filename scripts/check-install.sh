#!/usr/bin/env bash
# Checks what a user gets from installing Attention Lens, with the tools Debian checks them with:
# installs the Release build into a scratch DESTDIR and validates the .desktop entry, the
# AppStream metainfo and the MIME type of sessions, the icons and man pages; then builds the
# .deb from the same build (no rebuild) and checks its Depends and its contents.
#   ./scripts/check-install.sh [BUILD_DIR]    (default: build, as scripts/build.sh makes it)
# Every check prints one line; the first that fails stops the script with status 1.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
id=io.github.attentionlens.AttentionLens
mime=application/x-attention-lens-session

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
fail() {
    echo "check-install: FAILED: $*" >&2
    exit 1
}
ok() { echo "check-install: ok: $*"; }
bundled_models=()

DESTDIR=$stage/root cmake --install "$build" --prefix /usr >/dev/null
usr=$stage/root/usr
share=$usr/share

# The programs and the version they report: the one of project() in CMakeLists.txt.
version=$(sed -n 's/^project(AttentionLens VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[[ -n $version ]] || fail "no version in CMakeLists.txt"
for program in attention-lens attention-lens-cli; do
    [[ -x $usr/bin/$program ]] || fail "$program is not installed in bin"
    said=$(QT_QPA_PLATFORM=offscreen "$usr/bin/$program" --version)
    [[ $said == "$program $version" ]] || fail "$program --version says \"$said\", not $version"
done
ok "attention-lens and attention-lens-cli --version: $version"

# The bundled model is installed where the installed programs look for it (beside bin).
for model in resources/models/*.safetensors; do
    name=$(basename "$model" .safetensors)
    [[ -f $share/attention-lens/models/$name.safetensors ]] || fail "the model $name is not installed"
    "$usr/bin/attention-lens-cli" model --model "$name" --text "To be, or not to be" --top-k 1 \
        >"$stage/model.json" || fail "the installed CLI cannot run the bundled model $name"
    grep -q '"next"' "$stage/model.json" || fail "the bundled model $name gave no prediction"
    bundled_models+=("./usr/share/attention-lens/models/$name.safetensors")
done
# A bundled Hugging Face folder: its config.json and weights, run by its folder's name.
for model in resources/models/*/config.json; do
    [[ -f $model ]] || continue
    name=$(basename "$(dirname "$model")")
    for f in config.json model.safetensors; do
        [[ -f $share/attention-lens/models/$name/$f ]] || fail "the model $name lacks $f when installed"
        bundled_models+=("./usr/share/attention-lens/models/$name/$f")
    done
    "$usr/bin/attention-lens-cli" model --model "$name" --text "To be, or not to be" --top-k 1 \
        >"$stage/model.json" || fail "the installed CLI cannot run the bundled model $name"
    grep -q '"next"' "$stage/model.json" || fail "the bundled model $name gave no prediction"
done
ok "bundled models installed and runnable: ${bundled_models[*]##*/}"

desktop=$share/applications/$id.desktop
[[ -f $desktop ]] || fail "$desktop is not installed"
desktop-file-validate "$desktop" || fail "desktop-file-validate $id.desktop"
grep -qx 'Exec=attention-lens %f' "$desktop" || fail "$id.desktop: Exec is not 'attention-lens %f'"
grep -qx "MimeType=$mime;" "$desktop" || fail "$id.desktop does not open $mime"
ok "desktop-file-validate $id.desktop"

metainfo=$share/metainfo/$id.metainfo.xml
[[ -f $metainfo ]] || fail "$metainfo is not installed"
appstreamcli validate --no-net "$metainfo" >"$stage/appstream.log" 2>&1 ||
    { cat "$stage/appstream.log" >&2; fail "appstreamcli validate --no-net $id.metainfo.xml"; }
release=$(xmllint --xpath 'string(/component/releases/release[1]/@version)' "$metainfo")
[[ $release == "$version" ]] || fail "the metainfo's newest release is $release, not $version"
ok "appstreamcli validate --no-net $id.metainfo.xml (newest release $release)"

# The MIME type: a database of freedesktop.org's types and ours, as update-mime-database builds
# it on a desktop; a session must resolve to our type by its name and, renamed, by its content.
mimexml=$share/mime/packages/$id.xml
[[ -f $mimexml ]] || fail "$mimexml is not installed"
xmllint --noout "$mimexml" || fail "$id.xml is not well-formed XML"
mkdir -p "$stage/data/mime/packages"
cp /usr/share/mime/packages/freedesktop.org.xml "$mimexml" "$stage/data/mime/packages/"
XDG_DATA_DIRS=$stage/data update-mime-database "$stage/data/mime" >"$stage/mime.log" 2>&1 ||
    { cat "$stage/mime.log" >&2; fail "update-mime-database refuses $id.xml"; }
printf '{\n    "format": "attention-lens-session",\n    "version": 1\n}\n' >"$stage/lesson.attnlens"
cp "$stage/lesson.attnlens" "$stage/renamed-session"
for f in lesson.attnlens renamed-session; do
    type=$(XDG_DATA_DIRS=$stage/data XDG_DATA_HOME=$stage/none \
        gio info -a standard::content-type "$stage/$f" | sed -n 's/.*standard::content-type: //p')
    [[ $type == "$mime" ]] || fail "$f is $type, not $mime"
done
grep -qx "$mime application/json" "$stage/data/mime/subclasses" ||
    fail "$mime is not a sub-class of application/json"
ok "update-mime-database: *.attnlens and session content are $mime (a kind of application/json)"

[[ -f $share/icons/hicolor/scalable/apps/$id.svg ]] || fail "no scalable icon"
xmllint --noout "$share/icons/hicolor/scalable/apps/$id.svg" || fail "the SVG icon is not XML"
for size in 16 24 32 48 64 128 256; do
    png=$share/icons/hicolor/${size}x$size/apps/$id.png
    [[ -f $png ]] || fail "no ${size}x$size icon"
    file "$png" | grep -q "PNG image data, $size x $size," || fail "$png is not a $size px PNG"
done
ok "icons: scalable SVG and PNGs of 16 to 256 px"

for program in attention-lens attention-lens-cli; do
    page=$share/man/man1/$program.1.gz
    [[ -f $page ]] || fail "no man page $program.1.gz"
    text=$(MANWIDTH=100 man -l "$page" 2>/dev/null | col -b)
    grep -q "^NAME" <<<"$text" || fail "$program.1 has no NAME section"
    grep -q -- "--version" <<<"$text" || fail "$program.1 does not list --version"
done
text=$(MANWIDTH=100 man -l "$share/man/man1/attention-lens-cli.1.gz" 2>/dev/null | col -b)
grep -q -- "--all-steps" <<<"$text" || fail "attention-lens-cli.1 lacks the options of its commands"
grep -q "Usage: attention-lens-cli render \[options\]" <<<"$text" ||
    fail "attention-lens-cli.1 does not show the commands' usage as they are typed"
ok "man pages attention-lens.1 and attention-lens-cli.1"

# The Debian package of the same build.
rm -f "$build"/attention-lens_*.deb
(cd "$build" && cpack -G DEB >"$stage/cpack.log" 2>&1) ||
    { cat "$stage/cpack.log" >&2; fail "cpack -G DEB"; }
deb=$(ls "$build"/attention-lens_"$version"_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6core6 libqt6gui6 libqt6widgets6 libqt6svg6 libqt6concurrent6 libqcustomplot libstdc++6; do
    grep -q "$lib" <<<"$depends" || fail "the package does not depend on $lib: $depends"
done
[[ $(dpkg-deb -f "$deb" Section) == science ]] || fail "the package's section is not science"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/attention-lens ./usr/bin/attention-lens-cli \
    "./usr/share/applications/$id.desktop" "./usr/share/metainfo/$id.metainfo.xml" \
    "./usr/share/mime/packages/$id.xml" "./usr/share/icons/hicolor/scalable/apps/$id.svg" \
    "./usr/share/icons/hicolor/16x16/apps/$id.png" "./usr/share/icons/hicolor/256x256/apps/$id.png" \
    ./usr/share/man/man1/attention-lens.1.gz ./usr/share/man/man1/attention-lens-cli.1.gz \
    "${bundled_models[@]}"; do
    grep -qxF "$f" <<<"$contents" || fail "$(basename "$deb") lacks $f"
done
ok "$(basename "$deb"): Depends ${depends:0:60}...; binaries, desktop entry, icons, metainfo, MIME, man pages"
