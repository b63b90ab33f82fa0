package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.HaltingObjectStore;
import dev.ourios.store.HaltingObjectStore.Step;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestKeys;
import dev.ourios.table.PartitionFilter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every commit gets its audit event exactly once, also when its event was lost and further commits followed before
 * any sweep repaired it, and GC ran past the grace meanwhile: GC keeps the superseded manifest whose commit is not
 * audited, and the next sweep walks back to it and emits the event.
 */
class AuditRepairWalkBackTest {
    @TempDir
    Path dir;

    /** Commits run at the real time: the committer compares its clock with the output's real modification time. */
    private SweepRunner runner(ObjectStore store, Clock wall) {
        return CompactionWiring.sweepRunner(SweepSettings.of(store, CompactionOptions.defaults(dir.resolve("scratch"))
                .withMinFiles(1)).withPlanClock(TestStores.LATER).withWallClock(wall)
                .withMeters(MeterProvider.noop()).withGcDryRun(false));
    }

    /** A day after now: every object written by the test is older than the default GC grace. */
    private static Clock pastTheGrace() {
        return Clock.fixed(Instant.now().plus(Duration.ofDays(1)), ZoneOffset.UTC);
    }

    @Test
    void an_event_whose_write_failed_is_emitted_after_a_second_commit_and_gc_past_the_grace() throws Exception {
        LocalObjectStore local = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(local, TestStores.spec(List.of("acme"), 1, 3, 40, 7));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);
        FailingAuditPuts store = new FailingAuditPuts(local);

        // Commit 1: its audit write fails.
        runner(store, Clock.systemUTC()).sweep(PartitionFilter.all(), r -> { });
        assertEquals(1, TestStores.snapshot(local, p).generation());
        assertTrue(store.refused.get() != null, "the first commit's audit put was refused");
        // Late data, and commit 2 before any repair succeeds: the sweep's re-emission of generation 1 fails too.
        TestStores.generate(local, TestStores.spec(List.of("acme"), 1, 2, 40, 8));
        runner(store, Clock.systemUTC()).sweep(PartitionFilter.all(), r -> { });
        assertEquals(2, TestStores.snapshot(local, p).generation());
        assertEquals(List.of(2L), generations(local), "only the second commit's event was written");

        // The store recovers; a day later GC runs past the grace, then the sweep's repair.
        store.failing.set(false);
        runner(store, pastTheGrace()).sweep(PartitionFilter.all(), r -> { });
        assertEquals(List.of(1L, 2L), generations(local), "every commit's event, exactly once");
        assertTrue(Files.exists(local.root().resolve(ManifestKeys.key(p, 1))),
                "GC ran before the repair and kept the unaudited commit's manifest");

        // Now that its event is recorded, the next GC collects the superseded manifest; nothing is emitted twice.
        runner(store, pastTheGrace()).sweep(PartitionFilter.all(), r -> { });
        assertFalse(Files.exists(local.root().resolve(ManifestKeys.key(p, 1))), "audited: collected");
        assertEquals(List.of(1L, 2L), generations(local));
    }

    @Test
    void an_event_lost_by_a_crash_after_the_commit_is_emitted_after_a_deletion_commits_on_top() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("acme"), 1, 3, 200, 11));
        PartitionKey p = PartitionKey.ofHour("acme", TestStores.HOUR);

        CompactorChild child = CompactorChild.start(dir.resolve("store"), dir.resolve("scratch-child"), 60_000, 1,
                false, Optional.of(Step.AFTER_COMMIT));
        int status = child.await(60_000);
        assertEquals(HaltingObjectStore.HALT_STATUS, status, "the child dies after its commit: " + child.output());
        assertEquals(1, TestStores.snapshot(store, p).generation());
        assertEquals(List.of(), generations(store), "the crash lost the event");

        // A deletion commits generation 2 (and audits it) without repairing anything.
        List<DeletionResult> deleted = CompactionWiring.deletion(DeletionSettings.of(store,
                CompactionOptions.defaults(dir.resolve("scratch-delete"))))
                .run(DeleterProcess.request("acme", "2026-11-01T10:00:00Z", "2026-11-01T11:00:00Z", 13), false,
                        r -> { });
        assertEquals(DeletionResult.Status.COMMITTED, deleted.get(0).status(), deleted.toString());
        assertEquals(List.of(2L), generations(store));

        runner(store, pastTheGrace()).sweep(PartitionFilter.all(), r -> { });
        assertEquals(List.of(1L, 2L), generations(store), "every commit's event, exactly once");
    }

    /** The generations of every audit event file in the store, sorted (one entry per event row). */
    private static List<Long> generations(LocalObjectStore store) throws Exception {
        Path audit = store.root().resolve("audit");
        List<Path> files;
        if (!Files.exists(audit)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(audit)) {
            files = s.filter(f -> f.getFileName().toString().endsWith(".parquet")
                    && !f.getFileName().toString().startsWith(".")).sorted().toList();
        }
        if (files.isEmpty()) {
            return List.of();
        }
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        StringBuilder list = new StringBuilder();
        for (Path f : files) {
            list.append(list.length() == 0 ? "" : ",").append('\'').append(f).append('\'');
        }
        List<Long> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
                ResultSet rs = c.createStatement().executeQuery("SELECT compaction_generation FROM read_parquet(["
                        + list + "], union_by_name=true) WHERE event_type <> 'audit_compaction' ORDER BY 1")) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    /**
     * Refuses the first audit event put it sees, and every later put of that same key while {@code failing}: one
     * commit's audit write fails, and so does every re-emission of it, while the other commits' events land.
     */
    private static final class FailingAuditPuts extends ForwardingObjectStore {
        final AtomicBoolean failing = new AtomicBoolean(true);
        final AtomicReference<String> refused = new AtomicReference<>();

        FailingAuditPuts(ObjectStore delegate) {
            super(delegate);
        }

        @Override
        public boolean putIfAbsent(String key, byte[] content) throws IOException {
            if (failing.get() && key.startsWith("audit/")) {
                refused.compareAndSet(null, key);
                if (key.equals(refused.get())) {
                    throw new IOException("injected: audit write of " + key + " failed");
                }
            }
            return delegate.putIfAbsent(key, content);
        }
    }
}
