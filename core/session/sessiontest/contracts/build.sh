#!/usr/bin/env bash
# Compiles the test-only contracts in this directory with the project's one
# contract build (assets/contracts/build.sh: pinned solc-js, the same
# settings) into build/, with build/sources.sha256. Run it after changing a
# .sol file and commit the result: package sessiontest, which only tests
# import, embeds build/, and TestFakeArtifactsAreBuilt fails while the
# artifacts are older than the sources.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../../../../assets/contracts/build.sh" "$here" "go test ./core/session/sessiontest/"
