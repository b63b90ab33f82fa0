package dev.ourios.table;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One entry of a day manifest's {@code covers} (STORAGE.md §4.15): the rows of hour {@code hour} of the day, as the
 * hour's live set stood at its generation {@code generation}, are in the day partition's files. The cover is valid
 * exactly while that generation is still the hour's current one ({@link CoverValidity}).
 *
 * @param hour       the hour of the day, 0 to 23
 * @param generation the hour's generation when it was covered (0: the hour had no manifest)
 * @param rows       the rows of the hour in the day partition's files (an upper bound after a deletion, which
 *                   writes no {@code services})
 * @param names      every object of the hour the day partition accounts for, sorted: the hour's live set at
 *                   {@code generation}, that manifest's retired ingest-file names and the late ingest files a later
 *                   rollup consumed
 * @param services   the exact rows of the hour in the day files per service, in {@link ServiceRows#ORDER}, adding up
 *                   to {@code rows}; empty when they are not known exactly
 */
public record Cover(int hour, long generation, long rows, List<String> names,
        Optional<List<ServiceRows>> services) {
    public Cover {
        Objects.requireNonNull(names, "names is null");
        Objects.requireNonNull(services, "services is null");
        names = List.copyOf(names);
        services = services.map(List::copyOf);
    }

    /** A cover whose rows per service are not known. */
    public Cover(int hour, long generation, long rows, List<String> names) {
        this(hour, generation, rows, names, Optional.empty());
    }

    /** This cover without its rows per service: they are no longer known exactly. */
    public Cover withoutServices() {
        return new Cover(hour, generation, rows, names);
    }

    /** The hour as it is written: two digits. */
    public String hourLabel() {
        return hour < 10 ? "0" + hour : Integer.toString(hour);
    }

    /**
     * The exact rows of the hour in the day files whose service is {@code service} (0 when the cover has no entry of
     * it); empty when the cover does not carry its rows per service.
     */
    public OptionalLong rowsOf(String service) {
        if (services.isEmpty()) {
            return OptionalLong.empty();
        }
        for (ServiceRows s : services.get()) {
            if (s.service().isPresent() && s.service().get().equals(service)) {
                return OptionalLong.of(s.rows());
            }
        }
        return OptionalLong.of(0);
    }
}
