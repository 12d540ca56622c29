#!/usr/bin/env bash
# Regenerates the keystore files of geth/ and foundry/, made by the real
# tools, so that keystore_test.go reads what stakeholders' wallets write
# rather than what our own code writes:
#   geth/     go-ethereum's keystore package (geth, clef, ethkey): standard
#             scrypt, a UTC--<time>--<address> name, an "address" field
#   foundry/  `cast wallet new` of foundry 1.7.1: scrypt n = 2^13, a UUID
#             name, no "address" field
# Each folder's ADDRESS file holds the address the tool printed. Needs go,
# node and npm; cast is installed in a temporary directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pass='fixture passphrase'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rm -rf "$here/geth" "$here/foundry"
mkdir -p "$here/geth" "$here/foundry"

(cd "$here/gethfixture" && go run . "$here/geth" "$pass") > "$here/geth/ADDRESS"

npm install --silent --no-audit --no-fund --prefix "$work" @foundry-rs/cast@1.7.1 >/dev/null
"$work/node_modules/.bin/cast" wallet new "$here/foundry" --unsafe-password "$pass" |
	sed -n 's/^Address: *//p' > "$here/foundry/ADDRESS"
echo "wrote $here/geth and $here/foundry"
