package dev.ourios.bench.soak;

import java.time.Instant;

/**
 * One ingest file the writer lands: {@code tenant}'s file {@code file} of partition hour {@code hour}, due when the
 * soak clock reads {@code at}. A late file is due after its hour has sealed.
 */
public record Landing(Instant at, String tenant, int hour, int file, boolean late) {
}
