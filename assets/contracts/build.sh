#!/usr/bin/env bash
# Compiles the contracts in this directory with solc-js (the npm package
# solc, which carries its compiler: nothing is downloaded at compile time)
# and writes, for each contract, build/<Name>.json = {"abi": [...],
# "bytecode": "0x..."}, plus build/sources.sha256, the sha256 of every input
# and output. Run it after changing a .sol file or this script and commit
# the result: the Go build embeds build/ (package assets), and
# `go test ./assets/` fails while the artifacts are older than the sources.
#
# Needs node and npm. The packages go to a temporary directory that is
# removed on exit; nothing but build/ is written here.
#
# Another directory of contracts (the tests' fakes) is built the same way
# by `build.sh DIR "the Go test that checks it"`: DIR's *.sol into DIR/build,
# its manifest naming DIR's own build.sh.
set -euo pipefail

SOLC_VERSION=0.8.37
OPENZEPPELIN_VERSION=5.7.0
EVM_VERSION=cancun
OPTIMIZER_RUNS=200

cd "${1:-$(dirname "$0")}"
CHECKED_BY="${2:-go test ./assets/}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

npm install --prefix "$work" --no-save --no-audit --no-fund --ignore-scripts --loglevel=error \
  "solc@$SOLC_VERSION" "@openzeppelin/contracts@$OPENZEPPELIN_VERSION" >/dev/null

export WORK="$work" SOLC_VERSION EVM_VERSION OPTIMIZER_RUNS CHECKED_BY
node - <<'JS'
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");

const env = process.env;
const modules = path.join(env.WORK, "node_modules");
const solc = require(path.join(modules, "solc"));
if (!solc.version().startsWith(env.SOLC_VERSION + "+")) {
  throw new Error(`solc ${solc.version()} is not the pinned ${env.SOLC_VERSION}`);
}
const openzeppelin = require(path.join(modules, "@openzeppelin/contracts/package.json")).version;

const sources = fs.readdirSync(".").filter((f) => f.endsWith(".sol")).sort();
const input = {
  language: "Solidity",
  sources: Object.fromEntries(sources.map((f) => [f, { content: fs.readFileSync(f, "utf8") }])),
  settings: {
    optimizer: { enabled: true, runs: Number(env.OPTIMIZER_RUNS) },
    evmVersion: env.EVM_VERSION,
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
  },
};

// Imports resolve only to the pinned OpenZeppelin package.
function findImports(name) {
  const file = path.join(modules, name);
  if (!name.startsWith("@openzeppelin/contracts/") || !fs.existsSync(file)) {
    return { error: `import not found: ${name}` };
  }
  return { contents: fs.readFileSync(file, "utf8") };
}

const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
// Warnings fail the build too: the sources are small enough to keep clean.
// One is meant: the vester's getClaimFee is declared state-changing, as the
// production vester declares it (docs/deployment.md D18), so that clients
// read it as they must read production's.
const meant = (e) =>
  e.errorCode === "2018" &&
  e.sourceLocation?.file === "Vester.sol" &&
  input.sources["Vester.sol"].content.startsWith("function getClaimFee(", e.sourceLocation.start);
const problems = (output.errors || []).filter((e) => !meant(e));
for (const e of problems) console.error(e.formattedMessage);
if (problems.length > 0) process.exit(1);

fs.rmSync("build", { recursive: true, force: true });
fs.mkdirSync("build");
const artifacts = [];
for (const source of sources) {
  for (const [name, contract] of Object.entries(output.contracts[source])) {
    // An interface has no bytecode and nothing to deploy.
    if (contract.evm.bytecode.object === "") continue;
    const file = `build/${name}.json`;
    const artifact = { abi: contract.abi, bytecode: "0x" + contract.evm.bytecode.object };
    fs.writeFileSync(file, JSON.stringify(artifact, null, 2) + "\n");
    artifacts.push(file);
  }
}

const sha256 = (f) => crypto.createHash("sha256").update(fs.readFileSync(f)).digest("hex");
const lines = [
  `# Written by build.sh; ${env.CHECKED_BY} checks it. sha256sum format.`,
  `# solc ${solc.version()}, @openzeppelin/contracts ${openzeppelin}, evm ${env.EVM_VERSION}, optimizer runs ${env.OPTIMIZER_RUNS}`,
  ...[...sources, "build.sh", ...artifacts.sort()].map((f) => `${sha256(f)}  ${f}`),
];
fs.writeFileSync("build/sources.sha256", lines.join("\n") + "\n");
console.log(`compiled ${artifacts.join(", ")} with solc ${solc.version()}`);
JS
