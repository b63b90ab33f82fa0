package dev.ourios.table;

import dev.ourios.store.ObjectInfo;
import java.util.List;

/**
 * Decides whether a cover holds (STORAGE.md §4.15): it is valid exactly while the hour's current generation, as
 * one listing of the hour shows it, is the generation it was taken at. Any commit to the hour (the next generation)
 * voids it, so the hour's own newest manifest, which holds every row of the hour, rules again. Pure.
 */
public final class CoverValidity {
    private CoverValidity() {
    }

    /**
     * True if {@code cover} is valid against {@code hourListing}: its highest canonical manifest has the cover's
     * generation, or, for a cover at generation 0, the hour has no canonical manifest and no reference
     * {@code manifest.json} (which would give it a generation of its own).
     */
    public static boolean isValid(Cover cover, List<ObjectInfo> hourListing) {
        return isValid(cover, hourListing, LiveSetResolver.highestManifest(hourListing));
    }

    /** As {@link #isValid(Cover, List)}, with the listing's highest canonical manifest already found. */
    static boolean isValid(Cover cover, List<ObjectInfo> hourListing, java.util.Optional<ObjectInfo> highestManifest) {
        long highest = highestManifest.map(o -> ManifestKeys.generationOfName(o.name())).orElse(0L);
        if (cover.generation() == 0) {
            return highest == 0 && hourListing.stream().noneMatch(o -> o.name().equals(ManifestKeys.REFERENCE_NAME));
        }
        return highest == cover.generation();
    }
}
