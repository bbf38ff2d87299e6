#!/usr/bin/env bash
# Builds the pinned BuildKit and buildx releases of test/tools/versions.txt that the cache lacks, from the Go
# module proxy (no git, no Docker). `go install pkg@version` refuses BuildKit (its go.mod has exclude
# directives), so each module is downloaded, copied out of the read-only module cache and built as the main
# module, the same way for every tool. Prints one line per tool: built (with seconds) or cached.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${ROCM_PERF_TOOLS:-$HOME/.cache/rocm-perf/tools}"
export PATH="/usr/local/go/bin:$PATH" GOFLAGS="${GOFLAGS:--buildvcs=false}" CGO_ENABLED=0
command -v go >/dev/null || { echo "build-tools: no Go toolchain (expected /usr/local/go/bin/go)" >&2; exit 2; }
mkdir -p "$cache"
while read -r role name module version packages; do
  case "$role" in ''|'#'*) continue ;; esac
  out="$cache/$name-$version"
  stamp="$out/.built"
  if [ -f "$stamp" ]; then echo "build-tools: $name $version cached ($out)"; continue; fi
  start=$(date +%s)
  src_dir=$(go mod download -json "$module@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  [ -n "$src_dir" ] || { echo "build-tools: go mod download $module@$version gave no Dir" >&2; exit 1; }
  work=$(mktemp -d "$cache/.work-$name-XXXXXX")
  trap 'rm -rf "$work"' EXIT
  cp -r "$src_dir/." "$work/"
  chmod -R u+w "$work"
  mkdir -p "$out.tmp"
  # version.Version is what `buildkitd --version`, `buildx version` and the builder's `BuildKit version` print.
  (cd "$work" && rm -rf vendor && go build -mod=mod -trimpath -ldflags "-s -w -X $module/version.Version=$version" \
    -o "$out.tmp/" $packages)
  rm -rf "$out" && mv "$out.tmp" "$out" && date -u +%FT%TZ > "$stamp"
  rm -rf "$work"; trap - EXIT
  echo "build-tools: $name $version built in $(( $(date +%s) - start )) s ($out)"
done < "$here/versions.txt"
