package dev.ourios.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI version of {@code ./ourios-chaos.sh}: five real CLI children (this module's test classpath), each halted at
 * a protocol step in turn while a query loop counts and a writer lands late files, then convergence. Random-moment
 * SIGKILLs are the long run's ({@code Rfc0009CrashTest} covers them in CI in-module). The long run is
 * the launcher's ({@code --iterations 200}); {@code -Dourios.chaos.iterations=N} lengthens this one.
 */
class ChaosRunTest {
    @TempDir
    Path dir;

    @Test
    // Among the longest tests (1-2 minutes on a loaded 2-core machine): a bound above the 5 m default.
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void short_crash_loop_keeps_every_invariant_and_converges() throws Exception {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        int iterations = Integer.getInteger("ourios.chaos.iterations", 5);
        System.out.println("chaos: seed " + seed + ", " + iterations + " iterations");
        ChaosConfig config = ChaosConfig.of(dir.resolve("store").toString(), Optional.empty(), iterations, seed,
                dir.resolve("work"), System.getProperty("java.class.path")).withQueryThreads(1).withHaltEvery(1);
        ChaosReport report;
        try (LocalObjectStore store = new LocalObjectStore(dir.resolve("store"))) {
            report = new ChaosRun(config, store).run();
        }
        System.out.print(report.table());
        assertTrue(report.ok(), "seed " + seed + ":\n" + report.table());
        Map<String, long[]> kills = report.kills();
        // Each step had a candidate to halt in (a late file lands before every child); mid-gc follows after-commit,
        // whose retired inputs it deletes.
        for (ChildKind k : new ChildKind[] {ChildKind.HALT_AFTER_COMMIT, ChildKind.HALT_MID_GC,
            ChildKind.HALT_MID_REWRITE, ChildKind.HALT_AFTER_OUTPUT_PUBLISHED}) {
            assertTrue(kills.get(k.label())[1] >= 1, k.label() + " must be reached: " + report.table());
        }
        assertTrue(report.queryCounts() > 0 && report.fullChecks() > 0, report.table());
    }

    @Test
    void a_store_holding_data_is_refused_before_anything_runs() throws Exception {
        Path store = dir.resolve("store");
        Path tenant = store.resolve("data/tenant_id=precious");
        Files.createDirectories(tenant);
        ChaosConfig config = ChaosConfig.of(store.toString(), Optional.empty(), 1, 1, dir.resolve("work"),
                System.getProperty("java.class.path"));
        try (LocalObjectStore s = new LocalObjectStore(store)) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> new ChaosRun(config, s).run());
            assertTrue(e.getMessage().contains("--store") && e.getMessage().contains("holds data"), e.getMessage());
        }
        assertTrue(Files.isDirectory(tenant));
        assertEquals(0, ChaosMain.run("--store", store.toString(), "--iterations", "0") == 2 ? 0 : 1,
                "--iterations 0 is bad usage");
    }
}
