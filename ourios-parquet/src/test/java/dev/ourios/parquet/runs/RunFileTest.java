package dev.ourios.parquet.runs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.parquet.TestFiles;
import dev.ourios.store.LocalObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sort runs: a run gives back its rows in order, in batches of its row-group size; compressing its row groups on
 * helper threads, or storing incompressible ones raw, does not change the file; a finished run is published once.
 */
class RunFileTest {
    @TempDir
    Path dir;

    /** A run compressed on helper threads is the same file as one compressed by the caller, group by group. */
    @Test
    void sort_runs_compressed_on_helpers_are_byte_identical() throws Exception {
        long seed = System.nanoTime();
        System.out.println("RunFileTest seed " + seed);
        var store = new LocalObjectStore(dir);
        Random rnd = new Random(seed);
        List<byte[]> rows = new ArrayList<>();
        int n = 3000 + rnd.nextInt(3000);
        for (int i = 0; i < n; i++) {
            // Mostly compressible rows, a few wider than the row-group byte cap (a page grows for them).
            rows.add(rnd.nextInt(500) == 0 ? TestFiles.bytes(rnd, 70_000)
                    : ("row " + i + " " + "x".repeat(rnd.nextInt(200))).getBytes(StandardCharsets.UTF_8));
        }
        writeInlineAndOnHelpers(store, rows, List.of("t".getBytes()), seed);
        assertRunHolds(store, "helpers.parquet", rows, seed);
    }

    /**
     * Writes {@code rows} as a run compressed by the caller ({@code inline.parquet}) and one compressed on helper
     * threads ({@code helpers.parquet}), and requires the two files to be the same bytes.
     */
    private void writeInlineAndOnHelpers(LocalObjectStore store, List<byte[]> rows, List<byte[]> table, long seed)
            throws Exception {
        try (RunCompressors compressors = new RunCompressors(2, "test-zstd")) {
            for (String name : List.of("inline.parquet", "helpers.parquet")) {
                try (RunFileWriter w = new RunFileWriter(store.create(name), 300, 64 << 10, table,
                        name.startsWith("helpers") ? compressors : null)) {
                    for (byte[] r : rows) {
                        w.write(r, 0, r.length);
                    }
                    w.commit();
                }
            }
        }
        assertArrayEquals(Files.readAllBytes(dir.resolve("inline.parquet")),
                Files.readAllBytes(dir.resolve("helpers.parquet")), "seed " + seed);
    }

    /** The run {@code name} gives back exactly {@code rows}, in order. */
    private static void assertRunHolds(LocalObjectStore store, String name, List<byte[]> rows, long seed)
            throws Exception {
        int i = 0;
        try (RunFileReader r = RunFileReader.open(store, name)) {
            for (List<byte[]> batch = r.nextBatch(); batch != null; batch = r.nextBatch()) {
                for (byte[] b : batch) {
                    assertArrayEquals(rows.get(i++), b, name + ", seed " + seed);
                }
            }
        }
        assertEquals(rows.size(), i, name);
    }

    /**
     * Incompressible stretches of a run (random bodies) are stored UNCOMPRESSED, compressible ones ZSTD; the rows come
     * back the same, and a run compressed on helpers is still the same file as one compressed by the caller.
     */
    @Test
    void sort_runs_store_incompressible_groups_uncompressed() throws Exception {
        long seed = System.nanoTime();
        System.out.println("RunFileTest seed " + seed);
        var store = new LocalObjectStore(dir);
        Random rnd = new Random(seed);
        List<byte[]> rows = new ArrayList<>();
        for (int part = 0; part < 3; part++) {
            for (int i = 0; i < 3000; i++) {
                rows.add(part == 1 ? TestFiles.bytes(rnd, 3000 + rnd.nextInt(2000))
                        : ("row " + i + " " + "abc ".repeat(50 + rnd.nextInt(50))).getBytes(StandardCharsets.UTF_8));
            }
        }
        writeInlineAndOnHelpers(store, rows, List.of(), seed);
        List<org.apache.parquet.hadoop.metadata.CompressionCodecName> codecs = new ArrayList<>();
        try (var footer = org.apache.parquet.hadoop.ParquetFileReader.open(
                new org.apache.parquet.io.LocalInputFile(dir.resolve("helpers.parquet")))) {
            footer.getFooter().getBlocks().forEach(b -> codecs.add(b.getColumns().get(0).getCodec()));
        }
        int firstRaw = codecs.indexOf(org.apache.parquet.hadoop.metadata.CompressionCodecName.UNCOMPRESSED);
        int lastRaw = codecs.lastIndexOf(org.apache.parquet.hadoop.metadata.CompressionCodecName.UNCOMPRESSED);
        assertTrue(firstRaw > 0 && lastRaw < codecs.size() - 1, codecs.toString());
        // Only groups of the random stretch (and the few a sample decision carries across its edges) are raw.
        long raw = codecs.stream()
                .filter(c -> c == org.apache.parquet.hadoop.metadata.CompressionCodecName.UNCOMPRESSED).count();
        assertTrue(raw > codecs.size() / 2, codecs.toString());
        assertEquals(org.apache.parquet.hadoop.metadata.CompressionCodecName.ZSTD, codecs.get(0));
        assertEquals(org.apache.parquet.hadoop.metadata.CompressionCodecName.ZSTD, codecs.get(codecs.size() - 1));
        // A run written without compression: every group raw, the same rows.
        try (RunFileWriter w = new RunFileWriter(store.create("raw.parquet"), 300, 64 << 10, List.of(), null, false)) {
            for (byte[] r : rows) {
                w.write(r, 0, r.length);
            }
            w.commit();
        }
        try (var footer = org.apache.parquet.hadoop.ParquetFileReader.open(
                new org.apache.parquet.io.LocalInputFile(dir.resolve("raw.parquet")))) {
            assertTrue(footer.getFooter().getBlocks().stream().allMatch(b -> b.getColumns().get(0).getCodec()
                    == org.apache.parquet.hadoop.metadata.CompressionCodecName.UNCOMPRESSED));
        }
        assertRunHolds(store, "helpers.parquet", rows, seed);
        assertRunHolds(store, "raw.parquet", rows, seed);
    }

    @Test
    void a_finished_run_is_published_from_another_thread_and_not_visible_before() throws Exception {
        var store = new LocalObjectStore(dir);
        long seed = System.nanoTime();
        System.out.println("RunFileTest seed " + seed);
        Random rnd = new Random(seed);
        List<byte[]> rows = new ArrayList<>();
        for (int i = 0; i < 1000 + rnd.nextInt(2000); i++) {
            rows.add(TestFiles.bytes(rnd, rnd.nextInt(400)));
        }
        RunFileWriter w = new RunFileWriter(store.create("bg.parquet"), 300, 64 << 10, List.of(), null, false);
        for (byte[] r : rows) {
            w.write(r, 0, r.length);
        }
        w.finish();
        assertThrows(IOException.class, () -> w.write(rows.get(0), 0, 1), "no rows after the footer");
        assertTrue(store.stat("bg.parquet").isEmpty(), "finished is not published");
        var publisher = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            publisher.submit(() -> {
                w.publish();
                return null;
            }).get();
        } finally {
            publisher.shutdown();
        }
        assertThrows(IOException.class, w::publish, "published once");
        assertRunHolds(store, "bg.parquet", rows, seed);
        // Abandoned between finish and publish: nothing is left behind.
        RunFileWriter dropped = new RunFileWriter(store.create("dropped.parquet"), 300, 64 << 10, List.of(), null,
                false);
        dropped.write(rows.get(0), 0, rows.get(0).length);
        dropped.finish();
        dropped.close();
        try (var left = Files.list(dir)) {
            assertEquals(List.of("bg.parquet"), left.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void sort_runs_round_trip_in_batches_of_the_row_group_size() throws Exception {
        var store = new LocalObjectStore(dir);
        Random rnd = new Random(7);
        List<byte[]> rows = new ArrayList<>();
        for (int i = 0; i < 2500; i++) {
            rows.add(TestFiles.bytes(rnd, rnd.nextInt(300)));
        }
        try (RunFileWriter w = new RunFileWriter(store.create("run.parquet"), 1000, 1 << 20,
                List.of("a".getBytes(), "ü😀".getBytes(StandardCharsets.UTF_8)))) {
            for (byte[] r : rows) {
                byte[] padded = new byte[r.length + 3];
                System.arraycopy(r, 0, padded, 3, r.length);
                w.write(padded, 3, r.length);
            }
            w.commit();
        }
        List<Integer> sizes = new ArrayList<>();
        int i = 0;
        try (RunFileReader r = RunFileReader.open(store, "run.parquet")) {
            for (List<byte[]> batch = r.nextBatch(); batch != null; batch = r.nextBatch()) {
                sizes.add(batch.size());
                for (byte[] b : batch) {
                    assertArrayEquals(rows.get(i++), b);
                }
            }
            assertNull(r.nextBatch());
            assertEquals("ü😀", r.strings().string(1));
            assertArrayEquals("a".getBytes(), r.strings().utf8(0));
        }
        assertEquals(List.of(1000, 1000, 500), sizes);

        // An independent reader sees the same rows: a run is ordinary Parquet.
        java.util.Properties p = new java.util.Properties();
        p.setProperty("autoinstall_known_extensions", "false");
        p.setProperty("autoload_known_extensions", "false");
        try (var c = java.sql.DriverManager.getConnection("jdbc:duckdb:", p);
                var st = c.prepareStatement("SELECT row FROM read_parquet(?, file_row_number=true)"
                        + " ORDER BY file_row_number")) {
            st.setString(1, dir.resolve("run.parquet").toString());
            try (var rs = st.executeQuery()) {
                int n = 0;
                while (rs.next()) {
                    assertArrayEquals(rows.get(n++), rs.getBytes(1));
                }
                assertEquals(rows.size(), n);
            }
        }
    }
}
