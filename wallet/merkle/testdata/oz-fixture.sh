#!/usr/bin/env bash
# Regenerates oz-fixture.json: the roots and proofs that OpenZeppelin's
# @openzeppelin/merkle-tree computes for the leaves of oz-input.json, so that
# merkle_test.go can compare our trees with a reference nobody here wrote.
#
# oz-input.json (not committed: it is derived) is written by
#   go test ./wallet/merkle -run TestOZFixture -write-oz-input
# Needs node and npm; the npm packages are installed in a temporary directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund @openzeppelin/merkle-tree@1.0.8 ethereum-cryptography@3.2.0 >/dev/null
cat > gen.mjs <<'JS'
import { readFileSync, writeFileSync } from "node:fs";
import { SimpleMerkleTree } from "@openzeppelin/merkle-tree";
import { keccak256 } from "ethereum-cryptography/keccak.js";
import { bytesToHex, hexToBytes } from "ethereum-cryptography/utils.js";

const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
const trees = input.trees.map((args) => {
  // D8: the leaf is keccak256(decodableArgs), hashed once; SimpleMerkleTree
  // takes bytes32 leaves as they are and pairs nodes in sorted order.
  const leaves = args.map((hex) => "0x" + bytesToHex(keccak256(hexToBytes(hex.slice(2)))));
  const tree = SimpleMerkleTree.of(leaves);
  return {
    root: tree.root,
    // Large trees keep every 37th proof: enough to cover every depth
    // without a fixture of megabytes.
    leaves: leaves.map((leaf, i) => ({ leaf, proof: leaves.length <= 64 || i % 37 === 0 ? tree.getProof(leaf) : null })),
  };
});
writeFileSync(process.argv[3], JSON.stringify({ generator: "@openzeppelin/merkle-tree@1.0.8", trees }, null, 1) + "\n");
JS
node gen.mjs "$here/oz-input.json" "$here/oz-fixture.json"
rm "$here/oz-input.json"
echo "wrote $here/oz-fixture.json"
