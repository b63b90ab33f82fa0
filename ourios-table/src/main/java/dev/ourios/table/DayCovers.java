package dev.ourios.table;

import dev.ourios.store.ObjectInfo;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a day partition says about its hours, from one listing of its directory and one read of its current manifest
 * (STORAGE.md §4.15). Whether a cover is valid is decided against each hour's own listing ({@link #validCover}).
 *
 * @param day             the day partition
 * @param currentManifest its current manifest object; empty when the day partition has none (no rollup)
 * @param manifest        that manifest, decoded; present iff {@code currentManifest} is
 */
public record DayCovers(DayPartition day, Optional<ObjectInfo> currentManifest, Optional<Manifest> manifest) {
    public DayCovers {
        Objects.requireNonNull(day, "day is null");
        if (currentManifest.isPresent() != manifest.isPresent()) {
            throw new IllegalArgumentException("BUG: a day manifest object and its content go together");
        }
    }

    /** A day without a day partition: it covers nothing. */
    public static DayCovers none(DayPartition day) {
        return new DayCovers(day, Optional.empty(), Optional.empty());
    }

    /** The cover of hour {@code hour}, valid or void. */
    public Optional<Cover> cover(int hour) {
        return manifest.flatMap(m -> m.cover(hour));
    }

    /** The cover of hour {@code hour} when it is valid against the hour's listing {@code hourListing}. */
    public Optional<ValidCover> validCover(int hour, List<ObjectInfo> hourListing) {
        Optional<Cover> cover = cover(hour);
        if (cover.isEmpty() || !CoverValidity.isValid(cover.get(), hourListing)) {
            return Optional.empty();
        }
        return Optional.of(new ValidCover(day, cover.get(), currentManifest.get(),
                manifest.get().commitRecord().flatMap(RecordedCommit::at)));
    }
}
