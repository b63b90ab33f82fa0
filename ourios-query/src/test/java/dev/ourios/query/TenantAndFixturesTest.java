package dev.ourios.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.RowTime;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.PartitionMismatchException;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.testkit.Testdata;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tenant isolation, and the reference writer's old files queried by time window and service. */
class TenantAndFixturesTest {
    @TempDir
    Path dir;

    static Path fixtures() {
        return Testdata.dir("reference-writer");
    }

    @Test
    void aForeignTenantRowFailsTheQuery() throws Exception {
        TestStore ts = new TestStore(dir, 5);
        long t = Instant.parse("2026-02-02T10:15:00Z").getEpochSecond() * 1_000_000_000L;
        PartitionKey p = PartitionKey.of("a", t);
        ts.ingest(p, List.of(LogRecord.builder("a").timeUnixNano(t).build(),
                LogRecord.builder("b").timeUnixNano(t + 1).build()));
        TenantMismatchException e = assertThrows(TenantMismatchException.class,
                () -> ts.engine().collect(Query.tenant("a")));
        assertTrue(e.getMessage().contains("'b'"), e.getMessage());
    }

    @Test
    void aRowOfAnotherHourFailsTheQueryEvenWhenItDoesNotMatch() throws Exception {
        TestStore ts = new TestStore(dir, 7);
        long t = Instant.parse("2026-02-02T10:15:00Z").getEpochSecond() * 1_000_000_000L;
        PartitionKey p = PartitionKey.of("a", t);
        List<LogRecord> rows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            rows.add(LogRecord.builder("a").timeUnixNano(t + i).severityNumber(i % 2 == 0 ? 9 : 17).build());
        }
        rows.add(LogRecord.builder("a").timeUnixNano(t + 3600L * 1_000_000_000L).severityNumber(9).build());
        ts.ingest(p, rows);
        // The stray row is not an ERROR row, so the query's own conditions would drop it: the check must not. (Rows
        // that pruning skips, a row group or page without ERROR rows, are never read and so never checked.)
        PartitionMismatchException e = assertThrows(PartitionMismatchException.class,
                () -> ts.engine().collect(Query.tenant("a").severityMin(17)));
        assertTrue(e.getMessage().contains("row 100"), e.getMessage());
    }

    @Test
    void referenceFilesAreQueriedByTheirTimeWithServiceFallback() throws Exception {
        LocalObjectStore src = new LocalObjectStore(fixtures());
        TestStore ts = new TestStore(dir, 6);
        List<LogRecord> all = new ArrayList<>();
        try (var names = Files.list(fixtures())) {
            for (Path f : names.filter(x -> x.toString().endsWith(".parquet")).sorted().toList()) {
                List<LogRecord> rows = new ArrayList<>();
                try (LogFileReader r = LogFileReader.open(src, f.getFileName().toString(), ReadOptions.all())) {
                    for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                        rows.add(rec);
                    }
                }
                // Copied byte for byte into a partition of the store, under an ingest-file name.
                PartitionKey p = rows.get(0).partitionKey();
                String key = p.dataPrefix() + ts.ingest(p, List.of()).replaceAll(".*/", "");
                ts.store.delete(key);
                ts.store.put(key, Files.readAllBytes(f));
                all.addAll(rows);
            }
        }
        String tenant = all.get(0).tenantId();
        List<LogRecord> mine = all.stream().filter(x -> x.tenantId().equals(tenant)).toList();
        long min = mine.stream().mapToLong(RowTime::of).min().orElseThrow();
        long max = mine.stream().mapToLong(RowTime::of).max().orElseThrow();
        Instant from = Instant.ofEpochSecond(0, min);
        Instant to = Instant.ofEpochSecond(0, max + 1);

        QueryResult everything = ts.engine().collect(Query.tenant(tenant).window(from, to));
        assertEquals(mine.size(), everything.rows().size(), everything.stats().toString());
        QueryResult firstOnly = ts.engine().collect(Query.tenant(tenant).window(from, Instant.ofEpochSecond(0,
                min + 1)));
        assertEquals(mine.stream().filter(x -> RowTime.of(x) == min).count(), firstOnly.rows().size());
        QueryResult after = ts.engine().collect(Query.tenant(tenant).window(to, to.plusSeconds(60)));
        assertEquals(0, after.rows().size());

        // Service: files before the promoted column match through resource_attributes.
        for (LogRecord rec : mine) {
            String svc = rec.serviceName() != null ? rec.serviceName()
                    : AttributesJson.firstString(rec.resourceAttributes(), "service.name").orElse(null);
            if (svc == null) {
                continue;
            }
            long expected = mine.stream().filter(x -> svc.equals(x.serviceName() != null ? x.serviceName()
                    : AttributesJson.firstString(x.resourceAttributes(), "service.name").orElse(null))).count();
            assertEquals(expected, ts.engine().collect(Query.tenant(tenant).service(svc)).rows().size(), svc);
        }
    }
}
