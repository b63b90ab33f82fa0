package dev.ourios.table;

import java.util.List;
import java.util.Objects;

/**
 * One entry of a day manifest's {@code covers} (STORAGE.md §4.15): the rows of hour {@code hour} of the day, as the
 * hour's live set stood at its generation {@code generation}, are in the day partition's files. The cover is valid
 * exactly while that generation is still the hour's current one ({@link CoverValidity}).
 *
 * @param hour       the hour of the day, 0 to 23
 * @param generation the hour's generation when it was covered (0: the hour had no manifest)
 * @param rows       the rows of the hour in the day partition's files
 * @param names      every object of the hour the day partition accounts for, sorted: the hour's live set at
 *                   {@code generation}, that manifest's retired ingest-file names and the late ingest files a later
 *                   rollup consumed
 */
public record Cover(int hour, long generation, long rows, List<String> names) {
    public Cover {
        Objects.requireNonNull(names, "names is null");
        names = List.copyOf(names);
    }

    /** The hour as it is written: two digits. */
    public String hourLabel() {
        return hour < 10 ? "0" + hour : Integer.toString(hour);
    }
}
