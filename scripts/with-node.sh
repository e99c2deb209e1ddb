#!/usr/bin/env bash
# Runs a command on the production image's Node: the major version of the Dockerfile's `FROM node:<major>-…`. When this
# machine's node is another major, that Node's newest release is taken from the npm registry (the node-linux-<arch>
# package: the official binary, no download at run time beyond the registry) into node_modules/.cache, once, and put
# first on the command's PATH, so that npm, its scripts and every child started with `node` or process.execPath run on it.
#   bash scripts/with-node.sh npm run test:cluster
set -euo pipefail
cd "$(dirname "$0")/.."

major=$(sed -n 's/^FROM node:\([0-9][0-9]*\)-.*/\1/p' Dockerfile | head -1)
if [ -z "$major" ]; then
  echo "[with-node] le Dockerfile ne dit pas « FROM node:<version majeure>-… »" >&2
  exit 1
fi

if [ "$(node -p 'process.versions.node.split(".")[0]')" != "$major" ]; then
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *)
      echo "[with-node] aucun paquet node-linux pour l’architecture $(uname -m)" >&2
      exit 1
      ;;
  esac
  dir="node_modules/.cache/node-$major-$arch"
  if [ ! -x "$dir/bin/node" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    tarball=$(npm pack --silent --pack-destination "$tmp" "node-linux-$arch@$major" | tail -1)
    tar -xzf "$tmp/$tarball" -C "$tmp"
    mkdir -p "$(dirname "$dir")"
    rm -rf "$dir"
    mv "$tmp/package" "$dir"
  fi
  PATH="$PWD/$dir/bin:$PATH"
  export PATH
fi

echo "[with-node] Node $(node --version) (celui de l’image de production : node:$major)"
"$@"
