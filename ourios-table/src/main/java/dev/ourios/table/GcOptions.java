package dev.ourios.table;

import java.time.Duration;
import java.util.Objects;

/**
 * @param grace  {@code gc-grace}: how long a retired file, orphan, temp file or superseded manifest is kept. It is
 *               what lets a reader that planned on the previous generation still find the retired inputs, and an
 *               in-flight compaction's unnamed output survive until its commit.
 * @param dryRun list what would be deleted, delete nothing
 */
public record GcOptions(Duration grace, boolean dryRun) {
    /** STORAGE.md §4: 10 minutes, far longer than a query plan lives or a commit takes after its output is written. */
    public static final Duration DEFAULT_GRACE = Duration.ofMinutes(10);

    public GcOptions {
        Objects.requireNonNull(grace, "grace is null");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("gc-grace must not be negative, got " + grace);
        }
    }

    public static GcOptions defaults() {
        return new GcOptions(DEFAULT_GRACE, false);
    }
}
