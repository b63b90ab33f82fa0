package dev.ourios.chaos;

import java.util.List;
import java.util.Map;

/** The outcome of a run: the table {@code ourios-chaos} prints, and whether every invariant held. */
record ChaosReport(String store, long seed, int iterations, double seconds, Map<String, long[]> kills,
        long rowsChecked, long queryCounts, long fullChecks, long lateFiles, long lateRows, long torn, long lost,
        long duplicated, long unknown, long failedQueries, Debris debris, boolean converged,
        List<String> violations) {

    boolean ok() {
        return torn == 0 && lost == 0 && duplicated == 0 && unknown == 0 && failedQueries == 0
                && debris.inPartitions() == 0 && converged && violations.isEmpty();
    }

    String table() {
        StringBuilder sb = new StringBuilder();
        row(sb, "store", store);
        row(sb, "seed", Long.toString(seed));
        row(sb, "iterations", iterations + String.format(" (%.1f s)", seconds));
        long landed = 0;
        for (Map.Entry<String, long[]> e : kills.entrySet()) {
            row(sb, "  " + e.getKey(), e.getValue()[1] + " hit of " + e.getValue()[0]);
            landed += e.getValue()[1];
        }
        row(sb, "kill points hit", Long.toString(landed));
        row(sb, "late files landed", lateFiles + " (" + lateRows + " rows)");
        row(sb, "rows checked", rowsChecked + " (" + queryCounts + " concurrent counts, " + fullChecks
                + " full partition reads)");
        row(sb, "torn reads", Long.toString(torn));
        row(sb, "lost rows", Long.toString(lost));
        row(sb, "duplicated rows", Long.toString(duplicated));
        row(sb, "unknown rows", Long.toString(unknown));
        row(sb, "failed queries", Long.toString(failedQueries));
        row(sb, "debris left after GC", debris.inPartitions() + " (temp " + debris.temps() + ", orphan "
                + debris.orphans() + ", retired " + debris.retired() + ", superseded manifests " + debris.superseded()
                + ", unrecognised " + debris.ignored() + ", extra live " + debris.extraLive() + ", audit missing "
                + debris.auditMissing() + ")");
        row(sb, "outside partitions", "audit temp files " + debris.auditTemps() + ", scratch entries "
                + debris.scratch() + " (reported, not asserted: sweeps collect them only once old)");
        row(sb, "final sweep + GC converged", converged ? "yes" : "NO");
        row(sb, "result", ok() ? "OK: every invariant held" : "FAILED");
        for (String v : violations) {
            sb.append("  violation: ").append(v).append('\n');
        }
        return sb.toString();
    }

    private static void row(StringBuilder sb, String k, String v) {
        sb.append(String.format("%-40s %s%n", k, v));
    }
}
