package dev.ourios.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ourios verify}: finds truncated, replaced and appended-to live files; changes nothing. */
class VerifierTest {
    @TempDir
    Path dir;
    LocalObjectStore store;
    PartitionKey p = PartitionKey.ofHour("t", TestStores.HOUR);
    ObjectInfo output;

    @BeforeEach
    void compacted() throws Exception {
        store = new LocalObjectStore(dir.resolve("store"));
        TestStores.generate(store, TestStores.spec(List.of("t"), 1, 5, 200, 31));
        TestStores.runner(store, dir.resolve("scratch")).sweep(PartitionFilter.all(), r -> { });
        output = TestStores.snapshot(store, p).live().get(0);
    }

    private Verifier.PartitionVerdict verify() {
        return new Verifier(store, new TableLayout(store), new TableReader(store, new ManifestCodec())).verify(p);
    }

    @Test
    void a_clean_store_verifies() {
        Verifier.PartitionVerdict v = verify();
        assertTrue(v.ok(), v.problems().toString());
        assertEquals(1000, v.rows());
    }

    @Test
    void a_truncated_live_file_is_reported_and_left_alone() throws Exception {
        Path f = store.root().resolve(output.key());
        byte[] b = Files.readAllBytes(f);
        Files.write(f, Arrays.copyOf(b, b.length / 2));
        Verifier.PartitionVerdict v = verify();
        assertFalse(v.ok());
        assertTrue(v.problems().get(0).contains(output.name()), v.problems().toString());
        assertEquals(b.length / 2, Files.size(f), "verify changes nothing");
    }

    @Test
    void a_file_replaced_with_one_more_row_by_an_outside_writer_is_reported() throws Exception {
        List<LogRecord> rows = new ArrayList<>(TestStores.readAll(store, output.key()));
        rows.add(rows.get(0));
        Path f = store.root().resolve(output.key());
        Files.delete(f);
        try (LogFileWriter w = new LogFileWriter(store.create(output.key()), WriterOptions.compacted(1 << 20))) {
            for (LogRecord r : rows) {
                w.write(r);
            }
            w.commit();
        }
        Verifier.PartitionVerdict v = verify();
        assertFalse(v.ok());
        assertTrue(v.problems().stream().anyMatch(s -> s.contains("checksum")), v.problems().toString());
    }

    @Test
    void a_file_replaced_by_another_with_the_same_row_count_is_reported() throws Exception {
        List<LogRecord> rows = TestStores.readAll(store, output.key());
        store.delete(output.key());
        try (LogFileWriter w = new LogFileWriter(store.create(output.key()), WriterOptions.compacted(1 << 20))) {
            for (LogRecord r : rows) {
                w.write(LogRecord.builder(r.tenantId()).timeUnixNano(r.effectiveTime())
                        .resourceAttributes(r.resourceAttributes()).serviceName(r.serviceName()).build());
            }
            w.commit();
        }
        Verifier.PartitionVerdict v = verify();
        assertFalse(v.ok());
        assertTrue(v.problems().stream().anyMatch(s -> s.contains("differs from the one recorded")),
                v.problems().toString());
    }
}
