package dev.ourios.gen;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What {@link LogGenerator} produces: for every tenant and each of {@code hours} consecutive UTC hours from
 * {@code startHour}, {@code filesPerHour} ingest files of {@code rowsPerFile} rows each.
 *
 * @param services  how many demo services emit logs (1..15); fewer takes the first N of the volume-ordered list
 * @param seed      the global seed; every (tenant, hour, file) derives its own stream from it
 * @param bodyBytes 0 for realistic rows (mostly template-clean, body null); N &gt; 0 forces a body on every row and
 *                  pads it with compressible text to about N bytes (memory and size tests)
 */
public record GeneratorSpec(List<String> tenants, Instant startHour, int hours, int filesPerHour, int rowsPerFile,
        int services, long seed, int bodyBytes) {

    public static final int DEFAULT_SERVICES = 15;

    public GeneratorSpec {
        tenants = List.copyOf(Objects.requireNonNull(tenants, "tenants"));
        Objects.requireNonNull(startHour, "startHour");
        if (tenants.isEmpty() || tenants.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("tenants must be a non-empty list of non-empty ids: " + tenants);
        }
        if (startHour.getEpochSecond() % 3600 != 0 || startHour.getNano() != 0) {
            throw new IllegalArgumentException("startHour must be the start of a UTC hour, got " + startHour);
        }
        if (hours < 1 || filesPerHour < 1 || rowsPerFile < 0) {
            throw new IllegalArgumentException("need hours >= 1, filesPerHour >= 1, rowsPerFile >= 0; got "
                    + hours + ", " + filesPerHour + ", " + rowsPerFile);
        }
        if (services < 1 || services > DEFAULT_SERVICES) {
            throw new IllegalArgumentException("services must be 1.." + DEFAULT_SERVICES + ", got " + services);
        }
        if (bodyBytes < 0) {
            throw new IllegalArgumentException("bodyBytes must be >= 0, got " + bodyBytes);
        }
    }

    /** All 15 services, no body padding. */
    public static GeneratorSpec of(List<String> tenants, Instant startHour, int hours, int filesPerHour,
            int rowsPerFile, long seed) {
        return new GeneratorSpec(tenants, startHour, hours, filesPerHour, rowsPerFile, DEFAULT_SERVICES, seed, 0);
    }

    public GeneratorSpec withServices(int n) {
        return new GeneratorSpec(tenants, startHour, hours, filesPerHour, rowsPerFile, n, seed, bodyBytes);
    }

    public GeneratorSpec withBodyBytes(int n) {
        return new GeneratorSpec(tenants, startHour, hours, filesPerHour, rowsPerFile, services, seed, n);
    }

    public GeneratorSpec withSeed(long s) {
        return new GeneratorSpec(tenants, startHour, hours, filesPerHour, rowsPerFile, services, s, bodyBytes);
    }

    /** Rows per tenant over the whole spec. */
    public long rowsPerTenant() {
        return (long) hours * filesPerHour * rowsPerFile;
    }
}
