#!/usr/bin/env bash
# Launcher for the chaos harness (the module directory ourios-chaos/ holds its sources, hence the .sh name, as for
# ourios-bench.sh). Runs the shaded jar built by `mvn -q -DskipTests package`:
#   ./ourios-chaos.sh --store DIR|s3://bucket/prefix [--iterations N] [--seed S]   (the store must be empty)
# JAVA_OPTS is passed to the harness JVM; the compactor children it kills get their own -Xmx256m.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/ourios-chaos/target/ourios-chaos.jar"
if [[ ! -f "$jar" ]]; then
  echo "ourios-chaos: $jar not found; build it with: mvn -q -DskipTests package" >&2
  exit 2
fi
exec java ${JAVA_OPTS:-} -jar "$jar" "$@"
