#!/usr/bin/env bash
# Launcher for the benchmark harness: runs the shaded jar built by `mvn -q -DskipTests package`.
# (Named ourios-bench.sh because ourios-bench/ is the module's directory.)
# JAVA_OPTS is passed to the JVM; the default heap is sized for the full-size suites and fixed (-Xms = -Xmx:
# G1 then never gives heap back, so no run pays for touching it again; docs/operations.md, "JVM heap").
#   ./ourios-bench.sh d2 --smoke        # seconds
#   ./ourios-bench.sh d2                # full size (~512 MiB + ~485 MiB partitions)
#   ./ourios-bench.sh query-spark --scale 0.1   # opt-in: needs ourios-spark built (below)
#   ./ourios-bench.sh cold-cli --scale 1        # opt-in: needs the CLI built (ourios-cli/target/ourios.jar)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/ourios-bench/target/ourios-bench.jar"
if [[ ! -f "$jar" ]]; then
  echo "ourios-bench: $jar not found; build it with: mvn -q -DskipTests package" >&2
  exit 2
fi
# The query-spark suite runs Spark in a child JVM on the class path of module ourios-spark, when it is built
# (mvn -B -q -Dourios.spark=true -DskipTests package -pl ourios-spark,ourios-bench -am).
spark=()
if [[ -f "$here/ourios-spark/target/spark-classpath.txt" ]]; then
  spark=(-Dourios.spark.classes="$here/ourios-spark/target/classes"
         -Dourios.spark.classpath="$here/ourios-spark/target/spark-classpath.txt")
fi
# The cold-cli suite runs the CLI through its launcher, as a user does.
exec java ${JAVA_OPTS:--Xmx4g -Xms4g} "${spark[@]}" -Dourios.launcher="$here/ourios" -jar "$jar" "$@"
