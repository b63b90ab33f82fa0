package dev.ourios.parquet.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RoundTripTest {
    @TempDir
    Path dir;

    @Test
    void edgeRecordsRoundTripExactly() throws Exception {
        var store = new LocalObjectStore(dir);
        List<LogRecord> in = new ArrayList<>(TestFiles.edgeRecords());
        in.add(TestFiles.bothZero());
        WrittenFile wf = TestFiles.write(store, "a.parquet", WriterOptions.ingest(), in);
        assertEquals(in.size(), wf.rows());
        assertEquals(Files.size(dir.resolve("a.parquet")), wf.bytes());
        assertEquals(1, wf.rowGroups());
        List<LogRecord> out = TestFiles.readAll(store, "a.parquet", ReadOptions.all());
        assertEquals(in, out);
        assertNull(out.get(0).effectiveTimeUnixNano());
        assertEquals(TestFiles.HOUR + 5, out.get(1).effectiveTimeUnixNano());
        assertEquals(0L, out.get(out.size() - 1).effectiveTime()); // bothZero, added last
    }

    @Test
    void extrasOfEveryTypeRoundTrip() throws Exception {
        var extras = TestFiles.extrasOfEveryType();
        var store = new LocalObjectStore(dir);
        LogRecord full = LogRecord.builder("t1").timeUnixNano(TestFiles.HOUR).extra("attr.http.route", "/cart")
                .extra("attr.count", -5L).extra("attr.latency", 1.5).extra("x_int", 7).extra("x_float", 2.5f)
                .extra("x_bool", true).extra("x_bin", new byte[] {(byte) 0xff}).extra("x_fixed", "abcd".getBytes())
                .build();
        LogRecord none = LogRecord.builder("t1").timeUnixNano(TestFiles.HOUR).build();
        TestFiles.write(store, "x.parquet", WriterOptions.ingest().withExtras(extras), List.of(full, none));
        List<LogRecord> out = TestFiles.readAll(store, "x.parquet", ReadOptions.all());
        assertEquals(full, out.get(0));
        assertEquals("/cart", out.get(0).extras().get("attr.http.route"));
        assertArrayEquals((byte[]) full.extras().get("x_bin"), (byte[]) out.get(0).extras().get("x_bin"));
        assertEquals(-5L, out.get(0).extras().get("attr.count"));
        assertEquals(1.5, out.get(0).extras().get("attr.latency"));
        assertTrue(out.get(1).extras().isEmpty());
        assertEquals(none, out.get(1));
    }

    @Test
    void randomRecordsRoundTrip() throws Exception {
        long seed = System.nanoTime();
        try {
            Random rnd = new Random(seed);
            var store = new LocalObjectStore(dir);
            List<LogRecord> in = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                in.add(TestFiles.random(rnd, rnd.nextInt(10) == 0 ? null : "svc-" + rnd.nextInt(5)));
            }
            WrittenFile wf = TestFiles.write(store, "r.parquet",
                    WriterOptions.ingest().withRowGroupRows(700), in);
            assertEquals(5, wf.rowGroups());
            assertEquals(in, TestFiles.readAll(store, "r.parquet", ReadOptions.all()));
        } catch (AssertionError | Exception e) {
            System.err.println("randomRecordsRoundTrip failed with seed " + seed);
            throw e;
        }
    }

    @Test
    void rejectsOnlyWhatTheSchemaCannotHold() throws Exception {
        var store = new LocalObjectStore(dir);
        try (LogFileWriter w = new LogFileWriter(store.create("bad.parquet"), WriterOptions.ingest())) {
            assertThrows(IllegalArgumentException.class,
                    () -> w.write(LogRecord.builder("t1").severityNumber(256).build()));
            assertThrows(IllegalArgumentException.class,
                    () -> w.write(LogRecord.builder("t1").extra("nope", 1L).build()));
            // Shape rules are not the storage layer's: a clean string row with a body is accepted.
            w.write(LogRecord.builder("t1").bodyKind(0).body("x".getBytes()).build());
            assertEquals(1, w.rows());
            assertTrue(w.dataSize() > 0);
            w.commit();
        }
        assertEquals(1, TestFiles.readAll(store, "bad.parquet", ReadOptions.all()).size());
    }

    @Test
    void closeWithoutCommitPublishesNothing() throws Exception {
        var store = new LocalObjectStore(dir);
        try (LogFileWriter w = new LogFileWriter(store.create("gone.parquet"), WriterOptions.ingest())) {
            w.write(LogRecord.builder("t1").build());
        }
        assertTrue(store.stat("gone.parquet").isEmpty());
    }
}
