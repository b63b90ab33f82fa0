package dev.ourios.table;

import java.time.Instant;
import java.util.Objects;

/** A file a commit took out of the live set, and when; GC deletes it once {@code at} is older than the grace. */
public record Retired(String file, Instant at) {
    public Retired {
        Objects.requireNonNull(file, "file is null");
        Objects.requireNonNull(at, "at is null");
    }
}
