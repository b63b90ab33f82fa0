package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.LogGenerator;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.Manifest;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep over a partition whose current manifest has a commit record without {@code at} and {@code checksum} (a
 * hand edit): the audit repair leaves it alone (no compaction of ours to audit), GC runs, and late data compacts on
 * top of it into a generation whose record is complete.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PartialCommitRecordSweepTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void lateDataCompactsOnTopOfAHandEditedCommitRecord() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        PartitionKey p = PartitionKey.ofHour("t", TestStores.HOUR);
        TestStores.generate(store, TestStores.spec(List.of("t"), 1, 4, 100, 41));
        assertEquals(1, TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { })
                .count(PartitionResult.Result.COMMITTED));
        List<LogRecord> before = TestStores.liveRows(store, p);

        Path m1 = store.root().resolve(TestStores.snapshot(store, p).currentManifest().orElseThrow().key());
        ObjectNode tree = (ObjectNode) JSON.readTree(Files.readAllBytes(m1));
        ((ObjectNode) tree.get("commit")).remove(List.of("at", "checksum"));
        Files.write(m1, JSON.writeValueAsBytes(tree));

        TestStores.generate(store, TestStores.spec(List.of("t"), 1, 2, 50, 42)); // late data
        LogGenerator late = new LogGenerator(TestStores.spec(List.of("t"), 1, 2, 50, 42));
        List<LogRecord> expected = new ArrayList<>(before);
        expected.addAll(late.file("t", 0, 0));
        expected.addAll(late.file("t", 0, 1));

        SweepReport report = TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });
        assertFalse(report.hasErrors(), report.toString());
        assertEquals(1, report.count(PartitionResult.Result.COMMITTED), report.toString());
        PartitionSnapshot s = TestStores.snapshot(store, p);
        assertEquals(2, s.generation());
        Manifest m2 = s.manifest().orElseThrow();
        assertTrue(m2.commit().complete().isPresent(), "what this build commits is complete: " + m2);
        assertEquals(TestStores.identities(expected), TestStores.identities(TestStores.liveRows(store, p)));
    }
}
