package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.CompactionPolicy;
import dev.ourios.compaction.verify.ChecksumMismatchException;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.PartitionSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two ways a rewrite compares rows written with rows read: checksums refuse a lost, repeated or altered row;
 * row counts refuse a lost or repeated one and let an altered one through (which is why no sweep or deletion is
 * built with counts); both publish an untouched rewrite with every row.
 */
class RowVerificationTest {
    @TempDir
    Path dir;

    private int stores;

    private static final RowFault DROP_ONE = (i, r) -> i == 5 ? List.of() : List.of(r);
    private static final RowFault REPEAT_ONE = (i, r) -> i == 5 ? List.of(r, r) : List.of(r);
    private static final RowFault ALTER_ONE = (i, r) -> i != 5 ? List.of(r)
            : List.of(LogRecord.builder(r.tenantId()).timeUnixNano(r.timeUnixNano())
                    .observedTimeUnixNano(r.observedTimeUnixNano()).attributes(r.attributes() + " ")
                    .resourceAttributes(r.resourceAttributes()).serviceName(r.serviceName()).build());

    @Test
    void both_publish_an_untouched_rewrite_with_every_row() throws IOException {
        for (RowVerification v : RowVerification.values()) {
            RewriteResult r = rewrite(v, null);
            assertEquals(250, r.rowsIn(), v.toString());
            assertEquals(250, r.rowsOut(), v.toString());
            assertTrue(r.checksumsMatch(), v.toString());
        }
    }

    @Test
    void both_refuse_a_lost_or_repeated_row() {
        for (RowVerification v : RowVerification.values()) {
            for (RowFault fault : List.of(DROP_ONE, REPEAT_ONE)) {
                assertThrows(ChecksumMismatchException.class, () -> rewrite(v, fault), v.toString());
            }
        }
    }

    @Test
    void only_checksums_refuse_an_altered_row() throws IOException {
        assertThrows(ChecksumMismatchException.class, () -> rewrite(RowVerification.CHECKSUMS, ALTER_ONE));
        RewriteResult counted = rewrite(RowVerification.ROW_COUNTS, ALTER_ONE);
        assertEquals(250, counted.rowsOut());
    }

    private RewriteResult rewrite(RowVerification verification, RowFault fault) throws IOException {
        Path root = dir.resolve("s" + stores++);
        LocalObjectStore store = new LocalObjectStore(root.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("a"), 1, 5, 50, 9));
        PartitionSnapshot s = TestStores.snapshot(store, PartitionKey.ofHour("a", TestStores.HOUR));
        CompactionPlan plan = new CompactionPolicy(CompactionOptions.defaults(root.resolve("scratch")))
                .decide(s.partition(), s.generation(), s.live(), TestStores.LATER.instant()).plan().orElseThrow();
        return new SortedRewriter(store, root.resolve("scratch"), Uuid7.system(), fault, verification).rewrite(plan);
    }
}
