package dev.ourios.compaction.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ourios.compaction.TestStores;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios verify}: finds truncated, replaced and appended-to live files; changes nothing; reports a manifest
 * without a recorded checksum as such, without failing, and checks whatever such a record does carry.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VerifierTest {
    private static final ObjectMapper JSON = new ObjectMapper();

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

    private Path currentManifest() throws Exception {
        return store.root().resolve(TestStores.snapshot(store, p).currentManifest().orElseThrow().key());
    }

    /** Rewrites the current manifest in place, as a person editing it by hand would, without the given fields. */
    private void handEditCommit(String... removed) throws Exception {
        Path m = currentManifest();
        ObjectNode tree = (ObjectNode) JSON.readTree(Files.readAllBytes(m));
        for (String field : removed) {
            if (field.equals("commit")) {
                tree.remove("commit");
            } else {
                ((ObjectNode) tree.get("commit")).remove(field);
            }
        }
        Files.write(m, JSON.writeValueAsBytes(tree));
    }

    private void replaceOutputWithOneMoreRow() throws Exception {
        List<LogRecord> rows = new ArrayList<>(TestStores.readAll(store, output.key()));
        rows.add(rows.get(0));
        store.delete(output.key());
        try (LogFileWriter w = new LogFileWriter(store.create(output.key()), WriterOptions.compacted(1 << 20))) {
            for (LogRecord r : rows) {
                w.write(r);
            }
            w.commit();
        }
    }

    @Test
    void a_clean_store_verifies() {
        Verifier.PartitionVerdict v = verify();
        assertTrue(v.ok(), v.problems().toString());
        assertEquals(Verifier.Status.OK, v.status());
        assertEquals(1000, v.rows());
    }

    @Test
    void an_uncompacted_partition_has_no_checksum_to_expect_and_verifies_ok() throws Exception {
        LocalObjectStore fresh = new LocalObjectStore(dir.resolve("fresh"));
        TestStores.generate(fresh, TestStores.spec(List.of("t"), 1, 3, 50, 32));
        Verifier.PartitionVerdict v = new Verifier(fresh, new TableLayout(fresh),
                new TableReader(fresh, new ManifestCodec())).verify(p);
        assertEquals(0, v.generation());
        assertEquals(Verifier.Status.OK, v.status(), v.toString());
    }

    @Test
    void a_manifest_without_a_recorded_checksum_is_reported_as_such_and_is_not_a_failure() throws Exception {
        byte[] written = Files.readAllBytes(currentManifest());
        for (String[] removed : new String[][] {{"checksum"}, {"output"}, {"commit"}, {"checksum", "rows",
                "bytes_out"}}) {
            Files.write(currentManifest(), written);
            handEditCommit(removed);
            Verifier.PartitionVerdict v = verify();
            String ctx = List.of(removed) + ": " + v;
            assertTrue(v.ok(), ctx);
            assertEquals(List.of(), v.problems(), ctx);
            assertEquals(Verifier.Status.NO_RECORDED_CHECKSUM, v.status(), ctx);
            assertEquals(1000, v.rows(), ctx);
            assertEquals(1, v.files(), ctx);
        }
    }

    @Test
    void without_a_recorded_checksum_a_broken_file_still_fails() throws Exception {
        handEditCommit("checksum");
        Path f = store.root().resolve(output.key());
        byte[] b = Files.readAllBytes(f);
        Files.write(f, Arrays.copyOf(b, b.length / 2));
        Verifier.PartitionVerdict v = verify();
        assertEquals(Verifier.Status.MISMATCH, v.status(), v.toString());
        assertTrue(v.problems().get(0).contains(output.name()), v.problems().toString());
    }

    @Test
    void a_record_without_row_count_or_size_still_checks_the_checksum() throws Exception {
        handEditCommit("rows", "bytes_out", "bytes_in", "at", "inputs");
        assertEquals(Verifier.Status.OK, verify().status(), "the checksum was recorded and matches");
        replaceOutputWithOneMoreRow();
        Verifier.PartitionVerdict v = verify();
        assertEquals(Verifier.Status.MISMATCH, v.status());
        assertEquals(1, v.problems().size(), v.problems().toString());
        assertTrue(v.problems().get(0).contains("differs from the one recorded at commit"), v.problems().toString());
    }

    @Test
    void a_hand_edited_row_count_alone_is_a_mismatch() throws Exception {
        Path m = currentManifest();
        ObjectNode tree = (ObjectNode) JSON.readTree(Files.readAllBytes(m));
        ((ObjectNode) tree.get("commit")).put("rows", 999);
        Files.write(m, JSON.writeValueAsBytes(tree));
        Verifier.PartitionVerdict v = verify();
        assertEquals(Verifier.Status.MISMATCH, v.status());
        assertTrue(v.problems().get(0).contains("read 1000 rows, the commit of generation 1 recorded 999"),
                v.problems().toString());
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
        replaceOutputWithOneMoreRow();
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
