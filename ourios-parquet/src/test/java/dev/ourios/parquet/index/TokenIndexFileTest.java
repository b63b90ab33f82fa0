package dev.ourios.parquet.index;

import dev.ourios.core.LineText;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import dev.ourios.parquet.TestFiles;
import dev.ourios.parquet.read.FooterCache;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.LocalObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The token index of written files (docs/spec/storage.md, "Token index"): deterministic, never ruling out a group
 * that holds a key, skipping groups that do not, ignored (the file scanned) when damaged, and small on the demo
 * shape. Seeds are printed; {@code -Dourios.index.seed=S} replays a run.
 */
class TokenIndexFileTest {
    @TempDir
    Path dir;

    private static long seed(String test) {
        long seed = Long.getLong("ourios.index.seed", System.nanoTime());
        System.out.println(test + ": seed " + seed + " (replay with -Dourios.index.seed=" + seed + ")");
        return seed;
    }

    private static List<LogRecord> randomRows(Random rnd, int n) {
        List<String> words = List.of("alpha", "Beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta");
        List<LogRecord> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String line = words.get(rnd.nextInt(words.size())) + " " + "w" + rnd.nextInt(5000) + " "
                    + words.get(rnd.nextInt(words.size()));
            String attr = "v" + rnd.nextInt(3000);
            rows.add(TestFiles.random(rnd, "svc-" + rnd.nextInt(3), b -> b.bodyKind(0)
                    .body(rnd.nextInt(5) == 0 ? null : line.getBytes(StandardCharsets.UTF_8))
                    .attributes(AttributesJson.encode(List.of(KeyValue.of("a", attr),
                            new KeyValue("arr", new AnyValue.ArrayValue(List.of(AnyValue.of("x" + rnd.nextInt(100)),
                                    AnyValue.of(7L)))))))));
        }
        return rows;
    }

    /** Every key of a row: its line's tokens and its attributes' string values. */
    private static Set<Long> keys(LogRecord r) {
        Set<Long> out = new HashSet<>();
        byte[] line = LineText.of(r);
        if (line != null) {
            for (String t : TextTokens.tokens(new String(line, StandardCharsets.UTF_8))) {
                out.add(TokenKeys.line(t));
            }
        }
        for (KeyValue kv : AttributesJson.decode(r.attributes())) {
            collect(kv.value(), v -> out.add(TokenKeys.attribute(kv.key(), v)));
        }
        for (KeyValue kv : AttributesJson.decode(r.resourceAttributes())) {
            collect(kv.value(), v -> out.add(TokenKeys.resource(kv.key(), v)));
        }
        return out;
    }

    private static void collect(AnyValue v, java.util.function.Consumer<String> sink) {
        if (v instanceof AnyValue.StringValue s) {
            sink.accept(s.value());
        } else if (v instanceof AnyValue.ArrayValue a) {
            a.values().forEach(e -> collect(e, sink));
        }
    }

    private static FileMetaData footer(Path file) throws IOException {
        try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file))) {
            return r.getFooter().getFileMetaData();
        }
    }

    private record Read(List<LogRecord> rows, int total, int kept, int skipped) {
    }

    private static Read read(LocalObjectStore store, String key, IndexCondition c) throws IOException {
        List<LogRecord> rows = new ArrayList<>();
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all().withIndex(c), new FooterCache(1 << 20))) {
            for (LogRecord rec = r.read(); rec != null; rec = r.read()) {
                rows.add(rec);
            }
            return new Read(rows, r.rowGroupsTotal(), r.rowGroupsKept(), r.rowGroupsIndexSkipped());
        }
    }

    @Test
    void the_index_is_deterministic_and_only_compacted_outputs_carry_it() throws Exception {
        Random rnd = new Random(seed("deterministic"));
        List<LogRecord> rows = randomRows(rnd, 3000);
        rows.sort(dev.ourios.core.SortKey.RECORD_ORDER);
        LocalObjectStore store = new LocalObjectStore(dir);
        WriterOptions opts = WriterOptions.compacted(1 << 20).withRowGroupRows(300 + rnd.nextInt(400));
        TestFiles.write(store, "a.parquet", opts, rows);
        TestFiles.write(store, "b.parquet", opts.withWriterThreads(1), rows);
        TestFiles.write(store, "c.parquet", opts, rows);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a.parquet")), Files.readAllBytes(dir.resolve("b.parquet")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("a.parquet")), Files.readAllBytes(dir.resolve("c.parquet")));
        String descriptor = footer(dir.resolve("a.parquet")).getKeyValueMetaData().get(TokenIndexRegion.KEY);
        assertTrue(descriptor != null && descriptor.startsWith("v1 "), descriptor);
        TestFiles.write(store, "ingest.parquet", WriterOptions.ingest(), rows);
        assertNull(footer(dir.resolve("ingest.parquet")).getKeyValueMetaData().get(TokenIndexRegion.KEY));
    }

    @Test
    void the_index_never_rules_out_a_group_holding_a_key_and_skips_groups_without_it() throws Exception {
        long seed = seed("no false negatives");
        Random rnd = new Random(seed);
        List<LogRecord> rows = randomRows(rnd, 4000);
        rows.sort(dev.ourios.core.SortKey.RECORD_ORDER);
        LocalObjectStore store = new LocalObjectStore(dir);
        TestFiles.write(store, "f.parquet", WriterOptions.compacted(1 << 20).withRowGroupRows(100 + rnd.nextInt(300)),
                rows);
        for (int n = 0; n < 60; n++) {
            LogRecord probe = rows.get(rnd.nextInt(rows.size()));
            List<Long> candidates = new ArrayList<>(keys(probe));
            long key = candidates.get(rnd.nextInt(candidates.size()));
            Read r = read(store, "f.parquet", new IndexCondition.AllKeys(new long[] {key}));
            Set<String> kept = new HashSet<>();
            r.rows().forEach(x -> kept.add(identity(x)));
            for (LogRecord row : rows) {
                if (keys(row).contains(key)) {
                    assertTrue(kept.contains(identity(row)), "seed " + seed + ": a row holding the key was skipped");
                }
            }
            assertEquals(r.total(), r.kept() + r.skipped());
        }
        Read absent = read(store, "f.parquet", new IndexCondition.AllKeys(new long[] {TokenKeys.line("nowhere")}));
        assertTrue(absent.skipped() >= absent.total() * 0.9, "seed " + seed + ": " + absent);
        assertTrue(absent.total() > 5);
        Read any = read(store, "f.parquet", IndexCondition.ANY);
        assertEquals(rows.size(), any.rows().size());
        assertEquals(0, any.skipped());
    }

    private static String identity(LogRecord r) {
        return r.timeUnixNano() + "|" + r.templateId() + "|" + r.attributes();
    }

    @Test
    void a_damaged_index_is_not_used_and_the_file_is_scanned() throws Exception {
        Random rnd = new Random(seed("damaged"));
        List<LogRecord> rows = randomRows(rnd, 2000);
        rows.sort(dev.ourios.core.SortKey.RECORD_ORDER);
        LocalObjectStore store = new LocalObjectStore(dir);
        TestFiles.write(store, "good.parquet", WriterOptions.compacted(1 << 20).withRowGroupRows(200), rows);
        IndexCondition absent = new IndexCondition.AllKeys(new long[] {TokenKeys.line("nowhere")});
        assertTrue(read(store, "good.parquet", absent).skipped() > 0);

        byte[] bytes = Files.readAllBytes(dir.resolve("good.parquet"));
        String descriptor = footer(dir.resolve("good.parquet")).getKeyValueMetaData().get(TokenIndexRegion.KEY);
        TokenIndexRegion.Location at = TokenIndexRegion.Location.parse(descriptor, bytes.length, 10).orElseThrow();
        byte[] damaged = bytes.clone();
        int victim = (int) (at.offset() + rnd.nextInt((int) at.length()));
        damaged[victim] ^= (byte) (1 << rnd.nextInt(8));
        Files.write(dir.resolve("damaged.parquet"), damaged);
        Read r = read(store, "damaged.parquet", absent);
        assertEquals(0, r.skipped());
        assertEquals(rows.size(), r.rows().size());
    }

    @Test
    void a_group_with_a_line_too_long_to_index_has_no_filter_and_is_read() throws Exception {
        Random rnd = new Random(seed("long line"));
        List<LogRecord> rows = randomRows(rnd, 1000);
        StringBuilder huge = new StringBuilder("needle ");
        while (huge.length() <= TokenIndexBuilder.MAX_LINE_BYTES) {
            huge.append("haystack ");
        }
        rows.add(TestFiles.random(rnd, "svc-0", b -> b.bodyKind(0).body(huge.toString()
                .getBytes(StandardCharsets.UTF_8))));
        rows.sort(dev.ourios.core.SortKey.RECORD_ORDER);
        LocalObjectStore store = new LocalObjectStore(dir);
        TestFiles.write(store, "long.parquet", WriterOptions.compacted(1 << 20).withRowGroupRows(100), rows);
        String descriptor = footer(dir.resolve("long.parquet")).getKeyValueMetaData().get(TokenIndexRegion.KEY);
        assertTrue(descriptor.matches(".* (0,.*|.*,0,.*|.*,0)"), "one group without a filter: " + descriptor);
        Read r = read(store, "long.parquet", new IndexCondition.AllKeys(new long[] {TokenKeys.line("needle")}));
        assertTrue(r.rows().stream().anyMatch(x -> x.body() != null && x.body().length > TokenIndexBuilder.MAX_LINE_BYTES));
        // Every other group is skipped but for a filter's false positive (about 1 % a group): at most two of ten.
        assertTrue(r.skipped() >= r.total() - 3 && r.skipped() < r.total(),
                "the other groups are skipped: " + r.skipped() + " of " + r.total());
    }

    @Test
    void descriptors_that_do_not_fit_the_file_are_refused() {
        assertTrue(TokenIndexRegion.Location.parse("v1 100 1a 32,64", 1000, 2).isPresent());
        for (String bad : List.of("", "v2 100 1a 32,64", "v1 100 1a 32", "v1 100 1a 32,65", "v1 990 1a 32,64",
                "v1 -5 1a 32,64", "v1 100 zz 32,64", "v1 100 1a 32,-32", "v1 100 1a", "v1 100 1ffffffff 32,64")) {
            assertFalse(TokenIndexRegion.Location.parse(bad, 1000, 2).isPresent(), bad);
        }
    }

    @Test
    void the_index_is_at_most_five_percent_of_the_data_on_the_demo_shape() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), Instant.parse("2026-01-01T00:00:00Z"), 1,
                8, 20_000, 5).withServices(8));
        List<LogRecord> rows = new ArrayList<>();
        for (int f = 0; f < 8; f++) {
            rows.addAll(gen.file("t", 0, f));
        }
        rows.sort(dev.ourios.core.SortKey.RECORD_ORDER);
        LocalObjectStore store = new LocalObjectStore(dir);
        long file = TestFiles.write(store, "demo.parquet", WriterOptions.compacted(4 << 20), rows).bytes();
        String descriptor = footer(dir.resolve("demo.parquet")).getKeyValueMetaData().get(TokenIndexRegion.KEY);
        int groups = descriptor.substring(descriptor.lastIndexOf(' ') + 1).split(",").length;
        long index = TokenIndexRegion.Location.parse(descriptor, file, groups).orElseThrow().length();
        double share = (double) index / (file - index);
        System.out.printf("demo shape: %d rows, %d row groups, %d file bytes, %d index bytes (%.2f%% of the data)%n",
                rows.size(), groups, file, index, 100 * share);
        assertTrue(share <= 0.05, "index " + index + " of " + file + " bytes");
    }

    @Test
    void an_index_spooled_to_scratch_writes_the_same_bytes_and_leaves_no_file_behind() throws Exception {
        LogGenerator gen = new LogGenerator(GeneratorSpec.of(List.of("t"), Instant.parse("2026-01-01T00:00:00Z"), 1,
                2, 5_000, 7).withServices(4));
        List<LogRecord> rows = new ArrayList<>(gen.file("t", 0, 0));
        rows.addAll(gen.file("t", 0, 1));
        rows.sort(dev.ourios.core.SortKey.RECORD_ORDER);
        LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        WriterOptions opts = WriterOptions.compacted(256 << 10);
        TestFiles.write(store, "heap.parquet", opts, rows);
        try (dev.ourios.parquet.write.LogFileWriter w = new dev.ourios.parquet.write.LogFileWriter(
                store.create("spooled.parquet"), opts, scratch)) {
            for (LogRecord r : rows) {
                w.write(r);
            }
            try (var listing = Files.list(scratch)) {
                assertEquals(1, listing.count(), "the index collects in one scratch file while the file is written");
            }
            w.commit();
        }
        assertArrayEquals(Files.readAllBytes(dir.resolve("store/heap.parquet")),
                Files.readAllBytes(dir.resolve("store/spooled.parquet")));
        String descriptor = footer(dir.resolve("store/spooled.parquet")).getKeyValueMetaData()
                .get(TokenIndexRegion.KEY);
        assertTrue(descriptor.split(" ")[3].split(",").length > 1, "several groups: " + descriptor);
        try (var listing = Files.list(scratch)) {
            assertEquals(0, listing.count(), "committed: the spool is gone");
        }

        try (dev.ourios.parquet.write.LogFileWriter w = new dev.ourios.parquet.write.LogFileWriter(
                store.create("aborted.parquet"), opts, scratch)) {
            for (LogRecord r : rows.subList(0, 2_000)) {
                w.write(r);
            }
        } // closed without commit: aborted
        try (var listing = Files.list(scratch)) {
            assertEquals(0, listing.count(), "aborted: the spool is gone");
        }
        assertFalse(Files.exists(dir.resolve("store/aborted.parquet")));
    }
}
