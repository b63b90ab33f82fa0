package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.audit.AuditDay;
import dev.ourios.compaction.audit.AuditEvent;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import dev.ourios.testkit.ForeignParquet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Audit days holding event files of other writers: a day of DuckDB's Snappy, GZIP and LZ4_RAW files with an extra
 * column compacts to the same events, extra column kept, as its twin of DuckDB's ZSTD files; a day holding a file
 * with damaged pages, a codec id no Parquet version defines, a schema nested past the stack, another tenant's event
 * or a mistyped column is refused in one line naming that file, and every other day of the same sweep commits.
 */
class AuditForeignFilesTest {
    private static final LocalDate SOURCE = LocalDate.parse("2026-11-01");
    private static final String EXTRA = "*, 'duckdb' AS origin";

    @TempDir
    Path dir;

    private static AuditEvent event(String tenant, int i) {
        Instant t = SOURCE.atStartOfDay().toInstant(ZoneOffset.UTC).plusSeconds(60L * i);
        return new AuditEvent(PartitionKey.ofHour(tenant, Instant.parse("2026-11-01T10:00:00Z")), t,
                List.of("in-" + i + ".parquet", "in2-" + i + ".parquet"), "out-" + i + ".compacted.parquet", i + 1,
                100 + i);
    }

    @Test
    void foreignCodecsCompactLikeTheirZstdTwinsAndDamagedFilesAreRefusedByName() throws Exception {
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        AuditLog audit = new AuditLog(store, dir.resolve("audit-scratch"));
        List<Path> ours = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            AuditEvent e = event("acme", i);
            audit.emit(e);
            ours.add(dir.resolve("store").resolve(AuditLog.keyOf(e)));
        }
        Path otherTenant = dir.resolve("store").resolve(AuditLog.keyOf(event("globex", 7)));
        audit.emit(event("globex", 7));

        AuditDay foreign = day(2);
        AuditDay twin = day(3);
        List<String> codecs = List.of("snappy", "gzip", "lz4");
        for (int i = 0; i < 3; i++) {
            put(store, foreign, duckdb(ours.get(i), codecs.get(i), EXTRA));
            put(store, twin, duckdb(ours.get(i), "zstd", EXTRA));
        }
        Map<String, byte[]> hostile = new java.util.LinkedHashMap<>();
        hostile.put("damaged", ForeignParquet.withDamagedPages(duckdb(ours.get(0), "snappy", "*")));
        byte[] lz4 = duckdb(ours.get(1), "lz4", "*");
        hostile.put("unknown-codec", ForeignParquet.withCodecId(lz4, 7, 60, ForeignParquet.columnChunks(lz4, dir)));
        hostile.put("deep", ForeignParquet.deeplyNested(200_000));
        hostile.put("tenant", Files.readAllBytes(otherTenant));
        hostile.put("mistyped", duckdb(ours.get(2), "snappy",
                "* EXCLUDE (timestamp), CAST(timestamp AS VARCHAR) AS timestamp"));
        Map<String, AuditDay> hostileDays = new java.util.LinkedHashMap<>();
        Map<String, String> hostileKeys = new java.util.LinkedHashMap<>();
        int d = 4;
        for (var h : hostile.entrySet()) {
            AuditDay day = day(d++);
            put(store, day, duckdb(ours.get(0), "zstd", "*"));
            hostileKeys.put(h.getKey(), put(store, day, h.getValue()));
            hostileDays.put(h.getKey(), day);
        }

        SweepReport report = runner(store).sweep(PartitionFilter.all(), r -> { });

        assertEquals(1, snapshot(store, foreign).live().size(), report.errors().toString());
        assertEquals(1, snapshot(store, twin).live().size(), report.errors().toString());
        List<String> fromForeign = events(store, foreign);
        assertEquals(3, fromForeign.size());
        assertEquals(events(store, twin), fromForeign);
        assertTrue(fromForeign.stream().allMatch(e -> e.endsWith("|duckdb")), fromForeign.toString());

        assertEquals(hostile.size(), report.errors().size(), report.errors().toString());
        for (var h : hostileDays.entrySet()) {
            assertEquals(0, snapshot(store, h.getValue()).generation(), h.getKey() + " committed");
            String key = hostileKeys.get(h.getKey());
            List<String> lines = report.errors().stream().filter(e -> e.contains(store.describe(key))).toList();
            assertEquals(1, lines.size(), h.getKey() + ": " + report.errors());
            assertEquals(1, lines.get(0).lines().count(), lines.get(0));
        }
        Function<String, String> errorOf = k -> report.errors().stream()
                .filter(e -> e.contains(store.describe(hostileKeys.get(k)))).findFirst().orElseThrow();
        assertTrue(errorOf.apply("tenant").contains("belongs to tenant 'globex'"), errorOf.apply("tenant"));
        assertTrue(errorOf.apply("mistyped").contains("column 'timestamp'"), errorOf.apply("mistyped"));
        assertTrue(errorOf.apply("deep").contains("nested"), errorOf.apply("deep"));
        assertTrue(errorOf.apply("unknown-codec").contains("names a page codec no Parquet version defines"),
                errorOf.apply("unknown-codec"));
    }

    private static AuditDay day(int dayOfMonth) {
        return new AuditDay("acme", LocalDate.of(2026, 11, dayOfMonth));
    }

    private byte[] duckdb(Path from, String codec, String select) throws Exception {
        return ForeignParquet.rewritten(from, dir, codec, select);
    }

    private static String put(LocalObjectStore store, AuditDay day, byte[] bytes) throws Exception {
        String key = day.prefix() + Uuid7.system().next() + ".parquet";
        store.put(key, bytes);
        return key;
    }

    private SweepRunner runner(LocalObjectStore store) {
        return CompactionWiring.sweepRunner(SweepSettings.of(store, CompactionOptions.defaults(dir.resolve("scratch"))
                .withGcGrace(Duration.ofHours(1))).withPlanClock(TestStores.LATER));
    }

    private static PartitionSnapshot snapshot(LocalObjectStore store, AuditDay day) throws Exception {
        return new TableReader(store, new ManifestCodec()).snapshot(
                PartitionKey.ofHour(day.tenantId(), day.date().atStartOfDay().toInstant(ZoneOffset.UTC)),
                day.prefix());
    }

    /** The day's events but its compaction's own, as DuckDB reads its live files, in time order. */
    private static List<String> events(LocalObjectStore store, AuditDay day) throws Exception {
        List<ObjectInfo> live = snapshot(store, day).live();
        Properties props = new Properties();
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        String files = live.stream().map(o -> "'" + store.describe(o.key()) + "'").collect(Collectors.joining(","));
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
                ResultSet rs = c.createStatement().executeQuery("SELECT tenant_id, epoch_ns(timestamp), event_kind,"
                        + " event_type, compaction_partition, array_to_string(compaction_input_files, ','),"
                        + " compaction_output_file, compaction_generation, compaction_rows, origin"
                        + " FROM read_parquet([" + files + "], union_by_name = true)"
                        + " WHERE event_type <> 'audit_compaction' ORDER BY timestamp")) {
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= 10; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }
}
