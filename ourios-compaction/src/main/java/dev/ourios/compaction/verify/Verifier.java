package dev.ourios.compaction.verify;

import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.table.DayPartition;
import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The scrub behind {@code ourios verify}: re-reads every live file and checks it against its own footer (row count),
 * the row-vs-path rule, and, for the file a manifest's commit record names, the checksum and, when recorded, the
 * size and row count recorded at commit. Changes nothing.
 *
 * <p>A manifest written by another tool or by hand may have no commit record, or one without a checksum (STORAGE.md
 * §3 allows both). Such a partition is readable and its files are still read and checked against their footers and
 * paths; it is reported as {@link Status#NO_RECORDED_CHECKSUM}, which is not a failure.
 */
public final class Verifier {
    private final ObjectStore store;
    private final TableLayout layout;
    private final TableReader reader;

    public Verifier(ObjectStore store, TableLayout layout, TableReader reader) {
        this.store = store;
        this.layout = layout;
        this.reader = reader;
    }

    /** A partition's outcome, worst first: a mismatch outranks a missing checksum. */
    public enum Status {
        /** Every live file read cleanly and, if the partition has a manifest, one was checked against its checksum. */
        OK,
        /**
         * Nothing was wrong, but the current manifest records no checksum a live file could be checked against (no
         * commit record, or one without {@code checksum} or {@code output}).
         */
        NO_RECORDED_CHECKSUM,
        /** At least one problem: the partition fails verification. */
        MISMATCH
    }

    /**
     * One partition's verdict.
     *
     * @param problems        one message per problem found; empty when nothing was wrong
     * @param checksumMissing the partition has a manifest, but no live file was checked against a checksum recorded
     *                        at commit
     */
    public record PartitionVerdict(PartitionKey partition, long generation, int files, long rows,
            List<String> problems, boolean checksumMissing) {
        public PartitionVerdict {
            problems = List.copyOf(problems);
        }

        /** True when nothing was wrong (a missing checksum is not wrong). */
        public boolean ok() {
            return problems.isEmpty();
        }

        public Status status() {
            if (!problems.isEmpty()) {
                return Status.MISMATCH;
            }
            return checksumMissing ? Status.NO_RECORDED_CHECKSUM : Status.OK;
        }
    }

    public List<PartitionVerdict> verify(PartitionFilter filter, Consumer<PartitionVerdict> onVerdict)
            throws java.io.IOException {
        List<PartitionVerdict> out = new ArrayList<>();
        java.util.Set<DayPartition> daysChecked = new java.util.HashSet<>();
        for (PartitionKey p : layout.partitions(filter)) {
            PartitionVerdict v = verify(p, daysChecked);
            out.add(v);
            onVerdict.accept(v);
        }
        return out;
    }

    public PartitionVerdict verify(PartitionKey p) {
        return verify(p, new java.util.HashSet<>());
    }

    /**
     * One hour's verdict. A validly covered hour (STORAGE.md §4.15) is checked through its day partition: the first
     * covered hour of a day met carries the check of the day's files against the day commit's checksum (their rows
     * checked against the tenant and the day), and every covered hour its late files.
     */
    private PartitionVerdict verify(PartitionKey p, java.util.Set<DayPartition> daysChecked) {
        PartitionSnapshot s;
        try {
            s = reader.hourSnapshot(p);
        } catch (Exception e) {
            return new PartitionVerdict(p, -1, 0, 0, List.of(p + ": " + e.getMessage()), false);
        }
        if (!s.isCovered()) {
            return verify(p, s, ReadOptions.partition(p), null);
        }
        PartitionVerdict late = verify(p, s, ReadOptions.partition(p), null);
        DayPartition day = DayPartition.of(p);
        if (!daysChecked.add(day)) {
            return late;
        }
        PartitionSnapshot daySnapshot;
        try {
            daySnapshot = reader.daySnapshot(day);
        } catch (Exception e) {
            return new PartitionVerdict(p, s.generation(), late.files(), late.rows(),
                    List.of(day.prefix() + ": " + e.getMessage()), false);
        }
        long from = day.label().hourStartNanos();
        PartitionVerdict days = verify(p, daySnapshot, ReadOptions.all(),
                new PartitionKey.Rows(day.tenantId(), from, from + 24 * 3_600_000_000_000L));
        List<String> problems = new ArrayList<>(late.problems());
        problems.addAll(days.problems());
        return new PartitionVerdict(p, s.generation(), late.files() + days.files(), late.rows() + days.rows(),
                problems, days.checksumMissing());
    }

    /**
     * The live files of {@code s} read with {@code options}; {@code rows}, when given, the tenant and times every row
     * must have (a day partition's), checked here since the reader checks only an hour.
     */
    private PartitionVerdict verify(PartitionKey p, PartitionSnapshot s, ReadOptions options,
            PartitionKey.Rows rowsOfDay) {
        List<String> problems = new ArrayList<>();
        Optional<CommitCheck> check = s.manifest().flatMap(CommitCheck::of);
        List<ObjectInfo> covered = new ArrayList<>();
        RowChecksum coveredSum = new RowChecksum();
        boolean coveredReadable = true;
        boolean everyFileRead = true;
        // A day partition's rows by hour of the day and service, held to its covers' counts below.
        CoverTally tally = rowsOfDay == null ? null : new CoverTally(rowsOfDay.fromNanos());
        long rows = 0;
        for (ObjectInfo f : s.live()) {
            boolean covers = check.isPresent() && check.get().covers(f);
            if (covers) {
                covered.add(f);
            }
            RowChecksum sum = new RowChecksum();
            long footerRows;
            try (LogFileReader r = LogFileReader.open(store, f.key(), options)) {
                footerRows = r.rowCount();
                LogRecord rec;
                while ((rec = r.read()) != null) {
                    if (rowsOfDay != null && !rowsOfDay.holds(rec.tenantId(), rec.effectiveTime())) {
                        throw new java.io.IOException(store.describe(f.key()) + ": row " + sum.rows()
                                + " belongs to tenant '" + rec.tenantId() + "' " + rec.partitionKey()
                                + ", outside the day partition's tenant and day");
                    }
                    sum.add(rec);
                    if (tally != null) {
                        tally.add(rec);
                    }
                }
            } catch (Exception e) {
                String msg = String.valueOf(e.getMessage());
                problems.add(msg.contains(f.name()) ? msg : store.describe(f.key()) + ": " + msg);
                coveredReadable &= !covers;
                everyFileRead = false;
                continue;
            }
            rows += sum.rows();
            if (footerRows != sum.rows()) {
                problems.add(store.describe(f.key()) + ": footer says " + footerRows + " rows, read " + sum.rows());
            }
            if (covers) {
                coveredSum.addAll(sum);
            }
        }
        boolean checked = false;
        if (check.isPresent()) {
            // A band's files are checked together against the one checksum their commit recorded.
            List<String> missing = check.get().outputs().stream()
                    .filter(o -> covered.stream().noneMatch(f -> f.name().equals(o))).toList();
            for (String o : missing) {
                if (s.manifest().get().fileNames().contains(o)) {
                    problems.add(p + ": committed output " + o + " is not live");
                }
            }
            if (!covered.isEmpty() && missing.isEmpty() && coveredReadable) {
                String described = covered.size() == 1 ? store.describe(covered.get(0).key())
                        : p + ": band of " + covered.size() + " files";
                problems.addAll(check.get().compare(covered.stream().mapToLong(ObjectInfo::size).sum(), described,
                        coveredSum));
                checked = true;
            }
        }
        if (tally != null && everyFileRead && s.manifest().isPresent()) {
            String manifest = s.currentManifest().map(o -> store.describe(o.key())).orElse(p.toString());
            problems.addAll(tally.compare(s.manifest().get().covers(), manifest));
        }
        // An expired partition (or one whose deletion kept no row) has nothing live to check: nothing is missing.
        return new PartitionVerdict(p, s.generation(), s.live().size(), rows, problems,
                s.manifest().isPresent() && !checked && !s.live().isEmpty());
    }
}
