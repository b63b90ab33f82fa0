package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.Query;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.CommitKind;
import dev.ourios.table.Cover;
import dev.ourios.table.DayPartition;
import dev.ourios.table.Manifest;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deletion request over rolled-up hours (storage.md 4.13, 4.15): the day partition is rewritten without the
 * request's rows (the covered hours' late files consumed) and committed with the same covers; the dry run counts
 * the same rows; running it again changes nothing.
 */
class RollupDeletionTest {
    private static final String TENANT = "acme";
    private static final DayPartition DAY = DayPartition.of(PartitionKey.ofHour(TENANT, TestStores.HOUR));

    @TempDir
    Path dir;

    @Test
    void aDeletionRewritesTheDayWithoutTheRequestsRowsAndKeepsTheCovers() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of(TENANT), 3, 3, 300, 29));
        CompactionOptions options = CompactionOptions.defaults(dir.resolve("scratch")).withRollup(true);
        TestStores.runner(store, options.scratchDir(), options, MeterProvider.noop())
                .sweep(PartitionFilter.all(), r -> { });
        List<LogRecord> late = new LogGenerator(TestStores.spec(List.of(TENANT), 3, 3, 80, 31)).file(TENANT, 1, 0);
        new IngestWriter(store).writeFile(DAY.hour(11), late);
        List<LogRecord> before = DayRows.of(store, DAY);
        Manifest rolled = new TableReader(store, new ManifestCodec()).daySnapshot(DAY).manifest().orElseThrow();

        String service = before.get(0).serviceName();
        Query q = Query.tenant(TENANT).service(service).window(TestStores.HOUR.plusSeconds(1800),
                TestStores.HOUR.plusSeconds(3 * 1800));
        DeletionRequest request = new DeletionRequest(q);
        Predicate<LogRecord> matches = request.matches();
        List<String> expected = TestStores.identities(before.stream().filter(matches.negate()).toList());
        long matching = before.size() - expected.size();
        assertTrue(matching > 0 && matching < before.size(), "the request matches some rows: " + matching);

        Deletion deletion = CompactionWiring.deletion(DeletionSettings.of(store, options));
        List<DeletionResult> dry = deletion.run(request, true, r -> { });
        assertEquals(matching, dry.stream().mapToLong(DeletionResult::rowsRemoved).sum(), dry.toString());
        assertEquals(TestStores.identities(before), TestStores.identities(DayRows.of(store, DAY)));

        List<DeletionResult> done = deletion.run(request, false, r -> { });
        assertTrue(done.stream().noneMatch(r -> r.status() == DeletionResult.Status.ERROR), done.toString());
        assertEquals(expected, TestStores.identities(DayRows.of(store, DAY)));
        TableReader reader = new TableReader(store, new ManifestCodec());
        Manifest day = reader.daySnapshot(DAY).manifest().orElseThrow();
        assertEquals(CommitKind.DELETE, day.commitRecord().orElseThrow().commitKind().orElseThrow());
        assertEquals(matching, day.commitRecord().get().rowsRemoved().orElseThrow());
        assertEquals(rolled.covers().stream().map(c -> List.of(c.hour(), c.generation())).toList(),
                day.covers().stream().map(c -> List.of(c.hour(), c.generation())).toList(), "the same covers");
        Cover eleven = day.cover(11).orElseThrow();
        assertTrue(eleven.names().size() > rolled.cover(11).orElseThrow().names().size(), "the late file consumed");
        assertEquals(List.of(), reader.hourSnapshot(DAY.hour(11)).live());
        assertTrue(reader.hourSnapshot(DAY.hour(11)).isCovered());
        AuditEvent event = AuditEvent.ofDay(DAY, day.generation(), day.commitRecord().get().complete().get());
        assertTrue(store.stat(AuditLog.keyOf(event)).isPresent(), "the deletion's event, of the day");

        List<DeletionResult> again = deletion.run(request, false, r -> { });
        assertTrue(again.stream().allMatch(r -> r.status() == DeletionResult.Status.UNCHANGED), again.toString());
        assertEquals(day.generation(), reader.daySnapshot(DAY).generation());
        assertFalse(expected.isEmpty());
    }
}
