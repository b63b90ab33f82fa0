package dev.ourios.compaction.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.TestStores;
import dev.ourios.core.LogRecord;
import dev.ourios.core.SortKey;
import dev.ourios.gen.LogGenerator;
import dev.ourios.parquet.rows.RowCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RowBufferTest {
    @Test
    void encodes_and_decodes_every_column_exactly() {
        RowBuffer b = new RowBuffer();
        List<LogRecord> rows = List.of(RowBufferAccess.edge("svc", 5), RowBufferAccess.edge(null, 0),
                RowBufferAccess.edge("😀", Long.MAX_VALUE));
        rows.forEach(r -> b.add(r, b.rows()));
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(rows.get(i), b.get(i));
        }
    }

    @Test
    void sorted_order_is_the_key_order_with_origin_ties_whatever_the_insertion_order() {
        for (int wide = 0; wide < 3; wide++) {
            sortedOrderMatchesAStableSort(wide);
        }
    }

    /**
     * {@code spread} 0: times 0..4 (many ties); 1: times across an hour of nanoseconds (the packed-key path);
     * 2: times from Long.MIN_VALUE to Long.MAX_VALUE (too wide to pack: the merge-sort path). Rows are added in a
     * shuffled order (inputs arrive interleaved), each with its origin = its position in the partition order.
     */
    private static void sortedOrderMatchesAStableSort(int spread) {
        long seed = new Random().nextLong();
        System.out.println("RowBufferTest seed " + seed + " spread " + spread);
        Random rnd = new Random(seed);
        RowBuffer b = new RowBuffer();
        List<LogRecord> rows = new ArrayList<>();
        LogGenerator gen = new LogGenerator(TestStores.spec(List.of("t"), 1, 3, 700, seed));
        for (int f = 0; f < 3; f++) {
            for (LogRecord r : gen.file("t", 0, f)) {
                // Coarse times force many key ties, so the origin tie-break is exercised.
                long time = switch (spread) {
                    case 0 -> rnd.nextInt(5);
                    case 1 -> rnd.nextInt(4) == 0 ? 7 : (long) (rnd.nextDouble() * 3_600_000_000_000L);
                    default -> rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(3) - 1L;
                };
                rows.add(LogRecord.builder(r.tenantId()).timeUnixNano(time)
                        .serviceName(rnd.nextInt(6) == 0 ? null : r.serviceName()).attributes(r.attributes())
                        .resourceAttributes(r.resourceAttributes()).build());
            }
        }
        List<Integer> arrival = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            arrival.add(i);
        }
        Collections.shuffle(arrival, rnd);
        for (int origin : arrival) {
            b.add(rows.get(origin), origin);
        }
        List<Integer> expected = new ArrayList<>(arrival);
        expected.sort(Comparator.comparing((Integer i) -> rows.get(i).serviceName(), SortKey.SERVICE_ORDER)
                .thenComparingLong(i -> rows.get(i).effectiveTime()).thenComparingInt(i -> i));
        int[] order = b.sortedOrder();
        assertEquals(rows.size(), order.length);
        for (int i = 0; i < order.length; i++) {
            int row = order[i];
            assertEquals((long) expected.get(i), RowCodec.originOf(b.page(row), b.offset(row)),
                    "seed " + seed + " position " + i);
            assertEquals(rows.get(expected.get(i)), b.get(row), "seed " + seed + " position " + i);
        }
        assertTrue(b.footprint() > 0);
        b.clear();
        assertEquals(0, b.rows());
    }

    /**
     * The instance memo in front of the string table changes no id: a seeded stream of values (equal values as
     * distinct instances, hash-colliding values, values too big for the capped table) interned by a buffer gets the
     * ids a plain first-come table with the same cap gives, before and after a clear().
     */
    @Test
    void interning_through_the_instance_memo_gives_the_table_ids() {
        long seed = new Random().nextLong();
        System.out.println("RowBufferTest interning seed " + seed);
        Random rnd = new Random(seed);
        long cap = 4_000;
        RowBuffer b = new RowBuffer(cap);
        List<String> pool = new ArrayList<>(List.of("Aa", "BB", "AaAa", "BBBB", "AaBB")); // equal hash codes
        for (int i = 0; i < 40; i++) {
            pool.add("value-" + i + "-" + "x".repeat(rnd.nextInt(300)));
        }
        for (int round = 0; round < 2; round++) {
            Map<String, Integer> expected = new HashMap<>();
            long used = 0;
            for (int i = 0; i < 5_000; i++) {
                String value = pool.get(rnd.nextInt(pool.size()));
                String instance = rnd.nextBoolean() ? value : new String(value); // equal, maybe another instance
                Integer id = expected.get(instance);
                if (id == null) {
                    long cost = 40 + 2L * value.length() + 16 + value.length() + 72; // RowBuffer's entry cost
                    id = used + cost > cap ? -1 : expected.size();
                    if (id >= 0) {
                        expected.put(value, id);
                        used += cost;
                    }
                }
                assertEquals((int) id, b.intern(instance), "seed " + seed + ", round " + round + ", lookup " + i
                        + " of " + value.substring(0, Math.min(12, value.length())));
            }
            assertTrue(expected.size() < pool.size(), "the cap must refuse some values (seed " + seed + ")");
            b.clear();
        }
    }
    /**
     * Rows encoded against an input reader's table and copied into the buffer ({@link RowBuffer#add(byte[], int,
     * ReaderTableMirror)}) are the rows {@link RowBuffer#add(LogRecord, long)} gives, in the same sort order, whatever
     * the reader table (capped, so some values are inline) and the buffer table (capped too) took, and across clears
     * (the reader's ids stay, the buffer's are new).
     */
    @Test
    void rows_copied_from_a_reader_table_equal_the_encoded_records_across_clears() {
        long seed = new Random().nextLong();
        System.out.println("RowBufferTest reader-table seed " + seed);
        Random rnd = new Random(seed);
        LogGenerator gen = new LogGenerator(TestStores.spec(List.of("t"), 1, 2, 600, seed));
        List<LogRecord> rows = new ArrayList<>();
        for (int f = 0; f < 2; f++) {
            rows.addAll(gen.file("t", 0, f));
        }
        rows.add(RowBufferAccess.edge("svc", 5));
        rows.add(RowBufferAccess.edge(null, 0));
        ReaderStringTable readerTable = new ReaderStringTable(1 + rnd.nextInt(6_000));
        ReaderTableMirror mirror = new ReaderTableMirror();
        RowBuffer copied = new RowBuffer(1 + rnd.nextInt(6_000));
        RowBuffer direct = new RowBuffer(Long.MAX_VALUE);
        RowCodec.Output enc = new RowCodec.Output(64);
        for (int i = 0; i < rows.size(); i++) {
            LogRecord r = rows.get(i);
            enc.reset();
            int readerWeight = RowCodec.encode(r, i, readerTable, enc);
            mirror.append(readerTable.takeNew());
            int weight = copied.add(enc.array(), 0, mirror);
            // A row's weight is its length with every reference inlined, whichever table took what.
            assertEquals(readerWeight, weight, "seed " + seed);
            assertEquals(direct.add(r, i), weight, "seed " + seed);
            if (rnd.nextInt(200) == 0 || i == rows.size() - 1) {
                assertSameRows(copied, direct, seed);
                copied.clear();
                direct.clear();
            }
        }
    }

    private static void assertSameRows(RowBuffer copied, RowBuffer direct, long seed) {
        int[] a = copied.sortedOrder();
        int[] b = direct.sortedOrder();
        assertEquals(b.length, a.length, "seed " + seed);
        for (int k = 0; k < a.length; k++) {
            assertEquals(direct.get(b[k]), copied.get(a[k]), "seed " + seed + " position " + k);
            assertEquals(RowCodec.originOf(direct.page(b[k]), direct.offset(b[k])),
                    RowCodec.originOf(copied.page(a[k]), copied.offset(a[k])), "seed " + seed);
        }
    }
}
