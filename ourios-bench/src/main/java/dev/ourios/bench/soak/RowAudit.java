package dev.ourios.bench.soak;

import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.DayPartition;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The end-of-run check that no row was lost, duplicated or altered: re-reads every live file of every partition
 * (the rows a query would see: a validly covered hour's rows in its day files and its late files) and compares the digest of each partition with the digest of the rows the writer
 * landed into it. Independent of the compactor's own input/output checksum, which only vouches for one rewrite.
 */
public final class RowAudit {
    /**
     * @param partitions  partitions compared (landed or present)
     * @param landed      digest of every row landed
     * @param live        digest of every row in the live sets
     * @param mismatches  partitions whose digests differ, with both values
     */
    public record Result(long partitions, Digest landed, Digest live, List<String> mismatches) {
        public Result {
            mismatches = List.copyOf(mismatches);
        }

        public boolean equal() {
            return mismatches.isEmpty() && landed.equals(live);
        }
    }

    private final ObjectStore store;
    private final TableLayout layout;
    private final TableReader tables;

    public RowAudit(ObjectStore store, TableLayout layout, TableReader tables) {
        this.store = store;
        this.layout = layout;
        this.tables = tables;
    }

    public Result check(Map<PartitionKey, Digest> landed) throws IOException {
        Map<PartitionKey, Digest> live = new TreeMap<>();
        List<String> misplaced = new ArrayList<>();
        for (LiveDays.Day d : new LiveDays(layout, tables).read()) {
            // The day files' rows, by hour; only the validly covered hours' count (the others' are dead rows).
            Map<Integer, Digest> dayRows = new TreeMap<>();
            for (ObjectInfo f : d.files().live()) {
                dayRows(f.key(), d.day(), dayRows, misplaced);
            }
            for (Map.Entry<PartitionKey, PartitionSnapshot> h : d.hours().entrySet()) {
                PartitionKey p = h.getKey();
                Digest digest = h.getValue().isCovered() ? dayRows.getOrDefault(p.hour(), Digest.EMPTY)
                        : Digest.EMPTY;
                for (ObjectInfo f : h.getValue().live()) {
                    digest = digest.plus(digest(f.key(), p));
                }
                live.put(p, digest);
            }
        }
        TreeSet<PartitionKey> all = new TreeSet<>(landed.keySet());
        all.addAll(live.keySet());
        List<String> mismatches = new ArrayList<>(misplaced);
        for (PartitionKey p : all) {
            Digest a = landed.getOrDefault(p, Digest.EMPTY);
            Digest b = live.getOrDefault(p, Digest.EMPTY);
            if (!a.equals(b)) {
                mismatches.add(p + ": landed " + a + ", live " + b);
            }
        }
        return new Result(all.size(), Digest.sum(landed.values()), Digest.sum(live.values()), mismatches);
    }

    /** Adds each row of a day file to its hour's digest; a row of another tenant or day is a mismatch. */
    private void dayRows(String key, DayPartition day, Map<Integer, Digest> byHour, List<String> misplaced)
            throws IOException {
        Map<Integer, RowChecksum> sums = new TreeMap<>();
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all())) {
            for (LogRecord row; (row = r.read()) != null; ) {
                PartitionKey p = row.partitionKey();
                if (!DayPartition.of(p).equals(day)) {
                    misplaced.add(key + " holds a row of " + p + ", outside its day " + day);
                    continue;
                }
                sums.computeIfAbsent(p.hour(), h -> new RowChecksum()).add(row);
            }
        }
        sums.forEach((h, c) -> byHour.merge(h, Digest.parse(c.value()), Digest::plus));
    }

    private Digest digest(String key, PartitionKey p) throws IOException {
        RowChecksum c = new RowChecksum();
        // The partition is passed so the reader also enforces the row-vs-path rule on every row.
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.partition(p))) {
            for (LogRecord row; (row = r.read()) != null; ) {
                c.add(row);
            }
        }
        return Digest.parse(c.value());
    }
}
