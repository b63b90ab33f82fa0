package dev.ourios.table;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of a cover's {@code services} (STORAGE.md §4.15): the rows of the covered hour in the day partition's
 * files whose {@code resource.service.name} is {@code service}.
 *
 * @param service the service, as a query's service filter reads it; empty for the rows without one
 * @param rows    the rows, at least 1 in a valid manifest
 */
public record ServiceRows(Optional<String> service, long rows) {
    /**
     * The order of a cover's entries: the entry without a service first, then by the name's UTF-8 bytes, unsigned
     * (the order of code points, whatever language reads the manifest).
     */
    public static final Comparator<ServiceRows> ORDER = (a, b) -> compareServices(a.service(), b.service());

    public ServiceRows {
        Objects.requireNonNull(service, "service is null");
    }

    /** The entry of {@code service} (null: the rows without one). */
    public static ServiceRows of(String service, long rows) {
        return new ServiceRows(Optional.ofNullable(service), rows);
    }

    /** {@link #ORDER} on the services alone. */
    public static int compareServices(Optional<String> a, Optional<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return Boolean.compare(a.isPresent(), b.isPresent());
        }
        return Arrays.compareUnsigned(a.get().getBytes(StandardCharsets.UTF_8),
                b.get().getBytes(StandardCharsets.UTF_8));
    }
}
