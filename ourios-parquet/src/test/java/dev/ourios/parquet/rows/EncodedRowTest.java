package dev.ourios.parquet.rows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compactor's byte-row path must be indistinguishable from the record path: encode/decode and inline are
 * lossless, and a file shredded from encoded rows is byte-identical to the one written from the records.
 */
class EncodedRowTest {
    @TempDir
    Path dir;

    /** A string table that interns everything offered, or nothing. */
    private static final class Table implements StringTable {
        private final boolean interning;
        private final List<String> strings = new ArrayList<>();
        private final List<byte[]> utf8 = new ArrayList<>();
        private final Map<String, Integer> ids = new HashMap<>();

        Table(boolean interning) {
            this.interning = interning;
        }

        @Override
        public int intern(String s) {
            if (!interning) {
                return -1;
            }
            return ids.computeIfAbsent(s, k -> {
                strings.add(k);
                utf8.add(k.getBytes(StandardCharsets.UTF_8));
                return strings.size() - 1;
            });
        }

        @Override
        public byte[] utf8(int id) {
            return utf8.get(id);
        }

        @Override
        public String string(int id) {
            return strings.get(id);
        }
    }

    private static List<LogRecord> records(long seed) {
        Random rnd = new Random(seed);
        List<LogRecord> in = new ArrayList<>(TestFiles.edgeRecords());
        in.add(TestFiles.bothZero());
        for (int i = 0; i < 2000; i++) {
            LogRecord r = TestFiles.random(rnd, rnd.nextInt(10) == 0 ? null : "svc-" + rnd.nextInt(5));
            if (rnd.nextInt(3) == 0) {
                LogRecord.Builder b = LogRecord.builder(r.tenantId()).timeUnixNano(r.timeUnixNano())
                        .serviceName(r.serviceName()).attributes(r.attributes()).body(r.body())
                        .params(r.params()).separators(r.separators());
                if (rnd.nextBoolean()) {
                    b.extra("attr.http.route", "/r" + rnd.nextInt(4));
                }
                if (rnd.nextBoolean()) {
                    b.extra("attr.count", rnd.nextLong()).extra("attr.latency", rnd.nextDouble());
                }
                if (rnd.nextBoolean()) {
                    b.extra("x_int", rnd.nextInt()).extra("x_float", rnd.nextFloat()).extra("x_bool", true)
                            .extra("x_bin", TestFiles.bytes(rnd, rnd.nextInt(9)))
                            .extra("x_fixed", TestFiles.bytes(rnd, 4));
                }
                if (rnd.nextBoolean()) {
                    b.extra("x_int", null);
                }
                r = b.build();
            }
            in.add(r);
        }
        return in;
    }

    @Test
    void decode_and_inline_give_back_every_record_and_its_sort_key() {
        long seed = System.nanoTime();
        System.out.println("EncodedRowTest seed " + seed);
        for (boolean interning : new boolean[] {true, false}) {
            Table table = new Table(interning);
            RowCodec.Output out = new RowCodec.Output(64);
            RowCodec.Output inlined = new RowCodec.Output(64);
            Random rnd = new Random(seed);
            for (LogRecord r : records(seed)) {
                out.reset();
                long origin = RowCodec.origin(rnd.nextInt(1 << 20), rnd.nextLong() >>> 24);
                int inlineLength = RowCodec.encode(r, origin, table, out);
                assertEquals(r, RowCodec.decode(out.array(), 0, table), "seed " + seed);
                assertEquals(origin, RowCodec.originOf(out.array(), 0), "seed " + seed);
                assertEquals(r.serviceName(), RowCodec.serviceOf(out.array(), 0, table), "seed " + seed);
                assertEquals(r.effectiveTime(), RowCodec.effectiveTimeOf(out.array(), 0), "seed " + seed);
                inlined.reset();
                assertEquals(inlineLength, RowCodec.inline(out.array(), 0, table, inlined), "seed " + seed);
                assertEquals(r, RowCodec.decode(inlined.array(), 0, null), "seed " + seed);
                assertEquals(origin, RowCodec.originOf(inlined.array(), 0), "seed " + seed);
                assertEquals(r.serviceName(), RowCodec.serviceOf(inlined.array(), 0, null), "seed " + seed);
                assertEquals(r.effectiveTime(), RowCodec.effectiveTimeOf(inlined.array(), 0), "seed " + seed);
            }
        }
    }

    @Test
    void a_reference_without_a_table_is_a_bug_not_a_wrong_value() {
        Table table = new Table(true);
        RowCodec.Output out = new RowCodec.Output(64);
        RowCodec.encode(TestFiles.edgeRecords().get(2), 0, table, out);
        assertThrows(IllegalStateException.class, () -> RowCodec.decode(out.array(), 0, null));
    }

    @Test
    void files_shredded_from_encoded_rows_are_byte_identical_to_files_written_from_records() throws Exception {
        long seed = System.nanoTime();
        System.out.println("EncodedRowTest seed " + seed);
        var store = new LocalObjectStore(dir);
        List<LogRecord> in = records(seed);
        WriterOptions opts = WriterOptions.compacted(256 << 10).withExtras(TestFiles.extrasOfEveryType());
        TestFiles.write(store, "records.parquet", opts, in);
        Random rnd = new Random(seed);
        Table table = new Table(true);
        try (LogFileWriter w = new LogFileWriter(store.create("rows.parquet"), opts)) {
            long origin = 0;
            for (LogRecord r : in) {
                RowCodec.Output out = new RowCodec.Output(16); // a fresh array per row, as the merge hands out
                RowCodec.encode(r, origin++, table, out);
                if (rnd.nextBoolean()) {
                    w.write(out.array(), 0, out.size(), table);
                } else {
                    RowCodec.Output inlined = new RowCodec.Output(16);
                    RowCodec.inline(out.array(), 0, table, inlined);
                    w.write(inlined.array(), 0, inlined.size(), null);
                }
            }
            w.commit();
        }
        assertArrayEquals(Files.readAllBytes(dir.resolve("records.parquet")),
                Files.readAllBytes(dir.resolve("rows.parquet")), "seed " + seed);
        assertEquals(in.size(), TestFiles.readAll(store, "rows.parquet", ReadOptions.all()).size());
    }

    @Test
    void an_encoded_row_the_schema_cannot_hold_fails_the_file() throws Exception {
        var store = new LocalObjectStore(dir);
        RowCodec.Output out = new RowCodec.Output(16);
        RowCodec.encode(LogRecord.builder("t1").timeUnixNano(TestFiles.HOUR).extra("nope", 1L).build(), 0,
                new Table(false), out);
        try (LogFileWriter w = new LogFileWriter(store.create("bad.parquet"), WriterOptions.ingest())) {
            // Rows are shredded in batches: the error surfaces at the latest at commit, which publishes nothing.
            assertThrows(IllegalArgumentException.class, () -> {
                w.write(out.array(), 0, out.size(), null);
                w.commit();
            });
            assertThrows(java.io.IOException.class, w::commit);
        }
        assertEquals(List.of(), store.listObjects(""));
    }
}
