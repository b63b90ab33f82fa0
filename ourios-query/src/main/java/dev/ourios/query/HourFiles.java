package dev.ourios.query;

import dev.ourios.core.Columns;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.table.DayCovers;
import dev.ourios.table.DayPartition;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;

/**
 * The files a query reads for one hour (docs/spec/storage.md, "Rollup: small hours into day files"): the hour's live
 * set, or, when its day partition validly covers it, the day partition's live files (of which only the rows of this
 * hour count) and the hour's late ingest files. The day partition is listed and its manifest read once, and the
 * hour's cover is decided against that same manifest, so the day files read are the ones the cover was valid for.
 * A {@link DayReads} claim reads several hours' day files at once: then {@code rules} says which rows of each file
 * count.
 *
 * @param partition the hour
 * @param covered   whether the hour is validly covered
 * @param files     the files to read, sorted by key
 * @param rules     what each file (by key) must hold and which of its rows count
 * @param coverRows rows a count takes from covers rather than from the files (a {@link DayReads} claim's): added to
 *                  what the files' rows count
 */
record HourFiles(PartitionKey partition, boolean covered, List<ObjectInfo> files,
        java.util.function.Function<String, FileRule> rules, long coverRows) {
    HourFiles {
        files = List.copyOf(files);
    }

    /** The files of {@code s}, an hour's snapshot (covered or its own), and the day files when it is covered. */
    static HourFiles of(PartitionSnapshot s, List<ObjectInfo> files) {
        PartitionKey hour = s.partition();
        return new HourFiles(hour, s.isCovered(), files,
                key -> isDayFile(key) ? FileRule.dayFileOfHour(hour) : FileRule.hourFile(hour), 0);
    }

    /** Nothing to read for {@code hour}: a {@link DayReads} claim read its rows with another hour's. */
    static HourFiles none(PartitionKey hour) {
        return new HourFiles(hour, true, List.of(), key -> FileRule.hourFile(hour), 0);
    }

    /**
     * The hour's files against the day partition's snapshot {@code daySnapshot} ({@link TableReader#daySnapshot}),
     * taken once for several hours of one day, so they resolve against the same day generation (a file list for
     * another engine must not hold two generations' day files). One listing of the hour.
     */
    static HourFiles resolve(TableReader tables, PartitionKey hour, PartitionSnapshot daySnapshot)
            throws IOException {
        PartitionSnapshot s = tables.hourSnapshot(hour, covers(DayPartition.of(hour), daySnapshot));
        if (!s.isCovered()) {
            return of(s, s.live());
        }
        List<ObjectInfo> files = new ArrayList<>(daySnapshot.live());
        files.addAll(s.live());
        files.sort(java.util.Comparator.comparing(ObjectInfo::key));
        return of(s, files);
    }

    /** The covers of the day partition {@code daySnapshot} resolved. */
    static DayCovers covers(DayPartition day, PartitionSnapshot daySnapshot) {
        return new DayCovers(day, daySnapshot.currentManifest(), daySnapshot.manifest());
    }

    /** True if {@code key} is a day partition's file, whose rows of other hours are skipped. */
    static boolean isDayFile(String key) {
        return DayPartition.isInDayPartition(key);
    }

    /** {@code predicate} narrowed to the effective times whose rows count, so a day file's other hours are pruned. */
    static Optional<FilterPredicate> within(Optional<FilterPredicate> predicate, FileRule rule) {
        FilterPredicate in = FilterApi.and(
                FilterApi.gtEq(FilterApi.longColumn(Columns.EFFECTIVE_TIME), rule.fromNanos()),
                FilterApi.lt(FilterApi.longColumn(Columns.EFFECTIVE_TIME), rule.toNanos()));
        return Optional.of(predicate.map(p -> FilterApi.and(p, in)).orElse(in));
    }
}
