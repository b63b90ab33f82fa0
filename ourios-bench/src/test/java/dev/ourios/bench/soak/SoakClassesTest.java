package dev.ourios.bench.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak with tenant classes and the rollup on: a simulated day (half a wall second an hour) of a small, a medium
 * and a large tenant, against a small-file bound scaled down so the three fall on its three sides. Every landed row
 * stays live exactly once through the rollup's day commits, and H4 holds per tenant: the small tenant keeps one file
 * for its day, the others fewer than 5 % of their files below the bound: a large hour's tail of late files is
 * folded into its main file once the day is over.
 */
class SoakClassesTest {
    private static final long SMALL_FILE_BYTES = 256 << 10;

    @TempDir
    Path dir;

    @Test
    void aDayOfThreeTenantClassesRollsUpKeepsEveryRowAndMeetsH4PerTenant() throws Exception {
        List<TenantClass> classes = TenantClass.parse("small=60,medium=1200,large=16000");
        SoakOptions o = new SoakOptions(1, 17_260, 24, 0.5, false, 3, 1, 1, Duration.ofMinutes(15),
                Duration.ofMinutes(10), Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMinutes(3),
                dir.resolve("run"), dir.resolve("out"), 11, CompactionOptions.DEFAULT_MAX_TAIL_RATIO, classes, true,
                SMALL_FILE_BYTES, 64L << 20);
        SoakResult r = new SoakRun(o, line -> { }).run();

        assertTrue(r.audit().equal(), "row digest: " + r.audit());
        assertEquals(r.ingest().rows(), r.audit().live().rows());
        assertEquals(0, r.compaction().errors(), r.compaction().firstErrors().toString());
        assertEquals(0, r.queryErrors());
        Map<String, TenantFiles.Share> byClass = r.tenantFiles().stream()
                .collect(Collectors.toMap(TenantFiles.Share::tenantClass, s -> s));
        assertEquals(3, byClass.size(), r.tenantFiles().toString());
        TenantFiles.Share small = byClass.get("small");
        TenantFiles.Share medium = byClass.get("medium");
        TenantFiles.Share large = byClass.get("large");
        // The shape the classes are for: the small tenant's day below the bound, the medium tenant's day above it
        // with its hours below, the large tenant's hours above it.
        assertTrue(small.liveBytesPerDay() < SMALL_FILE_BYTES, small.toString());
        assertTrue(medium.liveBytesPerDay() >= SMALL_FILE_BYTES, medium.toString());
        assertTrue(large.liveBytesPerDay() / 24 >= SMALL_FILE_BYTES, large.toString());
        assertEquals(1, small.days());
        assertEquals(1, small.files(), "the small tenant's day is one file: " + small);
        assertTrue(medium.shareBelow() < 0.05, medium.toString());
        assertTrue(large.shareBelow() < 0.05, large.toString());
        assertTrue(small.rolledUp() > 0 && medium.rolledUp() > 0, "the small hours were rolled up");
        // The run's last hour gets no late files and may fall below the bound: at most that one is rolled up.
        assertTrue(large.rolledUp() <= large.landedRows() / 12, "a large tenant's hours stay hourly: " + large);
        assertTrue(r.finalStore().days() >= 2, "day partitions of the small and the medium tenant: " + r.finalStore());
        assertTrue(r.passed(), r.checks().toString());
        String md = new SoakReport(r).markdown("chart.svg");
        assertTrue(md.contains("| small-00 | small | 1 |") && !md.contains("FAIL"), md);
    }

    @Test
    void classesParseTheirRatesAndRefuseBadSpecs() {
        SoakOptions o = SoakOptions.parse(List.of("--tenants", "2", "--hours", "48", "--classes",
                "small=40,medium=800,large=16000", "--rollup", "--small-file-bytes", "1048576"));
        assertEquals(2 * (40 + 800 + 16000), o.rate());
        assertTrue(o.rollup());
        assertEquals(1 << 20, o.smallFileBytes());
        assertTrue(o.command().contains("--classes small=40,medium=800,large=16000 --rollup --small-file-bytes "
                + "1048576"), o.command());
        assertEquals(o, SoakOptions.parse(List.of(o.command().substring("./ourios-bench.sh soak ".length())
                .split(" "))), "the command reproduces the options");
        assertThrows(IllegalArgumentException.class, () -> TenantClass.parse("small"));
        assertThrows(IllegalArgumentException.class, () -> TenantClass.parse("small=x"));
        assertThrows(IllegalArgumentException.class, () -> TenantClass.parse("Small=3"));
        assertThrows(IllegalArgumentException.class, () -> TenantClass.parse("a=1,a=2"));
        assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse(List.of("--tenants", "1", "--hours",
                "2", "--rate", "10", "--classes", "a=1")));
        assertFalse(SoakOptions.parse(List.of("--tenants", "1", "--rate", "10", "--hours", "1")).rollup());
    }
}
