package dev.ourios.bench.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ourios.compaction.plan.CompactionOptions;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI soak: a few simulated hours (two wall seconds each) of two tenants with late files, the daemon compacting
 * throughout. The invariants are RFC0009.7's: every landed row is live exactly once, the backlog returns to zero
 * once ingest stops, and after the final sweep a partition holds one live file, or its main file and one tail file
 * of late rows, not one per ingest file.
 */
class SoakRunTest {
    @TempDir
    Path dir;

    @Test
    void shortSimulatedSoakKeepsEveryRowAndEndsWithAtMostTwoFilesPerPartition() throws Exception {
        SoakOptions o = new SoakOptions(2, 6_000, 3, 2, false, 3, 1, 1, Duration.ofMinutes(15), Duration.ofMinutes(10),
                Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMinutes(3), dir.resolve("run"),
                dir.resolve("out"), 7, CompactionOptions.DEFAULT_MAX_TAIL_RATIO);
        SoakResult r = new SoakRun(o, line -> { }).run();

        assertTrue(r.audit().equal(), "row digest: " + r.audit());
        assertEquals(r.ingest().rows(), r.audit().live().rows());
        // 2 tenants x 3 hours x 3 on-time files, plus 1 late file per tenant for the first two hours.
        assertEquals(2 * 3 * 3 + 2 * 2, r.ingest().files());
        assertEquals(2 * 2, r.ingest().lateFiles());
        assertEquals(0, r.finalStore().backlog(), "final backlog");
        assertTrue(r.drainSeconds() >= 0, "backlog reached zero after ingest stopped");
        assertEquals(6, r.finalStore().partitions());
        assertTrue(r.finalStore().liveFiles() >= 6 && r.finalStore().liveFiles() <= 2 * 6,
                "one or two live files per partition: " + r.finalStore().liveFiles());
        assertTrue(r.compaction().committed() >= 6, "every partition compacted at least once: " + r.compaction());
        assertEquals(0, r.compaction().errors(), r.compaction().firstErrors().toString());
        assertEquals(0, r.queryErrors());
        assertTrue(r.passed(), r.checks().toString());
        assertTrue(r.samples().size() >= 2, "sampled through the run");

        JsonNode json = new ObjectMapper().readTree(new SoakReport(r).json());
        assertEquals(r.samples().size(), json.get("samples").size());
        String md = new SoakReport(r).markdown("chart.svg");
        assertTrue(md.contains("PASS — every landed row") && !md.contains("FAIL"), md);
        String svg = new SoakChart(r.samples(), r.ingestSeconds(), "ci").svg();
        assertTrue(svg.startsWith("<svg") && svg.contains("<path"), svg);
    }
}
