package dev.ourios.table;

import dev.ourios.store.ObjectInfo;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A cover that holds for its hour (STORAGE.md §4.15): the hour's current generation is the cover's, so the hour's
 * rows are read from the day partition and the names the cover accounts for are invisible in the hour.
 *
 * @param day         the day partition
 * @param cover       the cover
 * @param dayManifest the day partition's current manifest object, the one holding the cover
 * @param dayCommitAt that manifest's {@code commit.at}, when its commit record has one
 */
public record ValidCover(DayPartition day, Cover cover, ObjectInfo dayManifest, Optional<Instant> dayCommitAt) {
    public ValidCover {
        Objects.requireNonNull(day, "day is null");
        Objects.requireNonNull(cover, "cover is null");
        Objects.requireNonNull(dayManifest, "dayManifest is null");
        Objects.requireNonNull(dayCommitAt, "dayCommitAt is null");
    }

    /**
     * The latest instant from which the names this cover accounts for have been out of the hour's live set: the day
     * manifest's commit time, or its object's time, whichever is later. GC waits the grace from it (STORAGE.md §5).
     */
    public Instant accountedSince() {
        Instant written = dayManifest.lastModified();
        return dayCommitAt.filter(at -> at.isAfter(written)).orElse(written);
    }
}
