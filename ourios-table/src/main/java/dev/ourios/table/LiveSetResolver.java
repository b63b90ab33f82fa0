package dev.ourios.table;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Classifies one listing of a partition against its current manifest (STORAGE.md §3). Pure: no I/O, so the
 * visibility rules can be tested and reused (reader, compactor, GC) on exactly the same code.
 *
 * <p>The current manifest is the highest canonical {@code manifest.<generation>.json}; without one, the reference
 * implementation's {@code manifest.json} rules the partition (§3.6): its files are exactly the live set and every
 * other {@code *.parquet} is an orphan. Once a manifest of ours exists, {@code manifest.json} is superseded.
 */
public final class LiveSetResolver {
    private static final Logger LOG = LoggerFactory.getLogger(LiveSetResolver.class);

    private LiveSetResolver() {
    }

    /** The highest canonical manifest in a listing, if any. */
    public static Optional<ObjectInfo> highestManifest(List<ObjectInfo> listing) {
        ObjectInfo highest = null;
        long highestGeneration = -1;
        for (ObjectInfo o : listing) { // each name parsed once: a query decides every hour of its window with this
            long generation = ManifestKeys.generationOfName(o.name());
            if (generation > highestGeneration) {
                highest = o;
                highestGeneration = generation;
            }
        }
        return Optional.ofNullable(highest);
    }

    /**
     * The manifest that rules a data partition's listing: the highest canonical one, else the reference
     * implementation's {@code manifest.json}, else none (generation 0).
     */
    public static Optional<ObjectInfo> currentManifest(List<ObjectInfo> listing) {
        return currentManifest(listing, true);
    }

    /**
     * As above; {@code referenceRules} false (an audit day, which the reference manifest does not govern) considers
     * only canonical manifests.
     */
    public static Optional<ObjectInfo> currentManifest(List<ObjectInfo> listing, boolean referenceRules) {
        Optional<ObjectInfo> ours = highestManifest(listing);
        if (ours.isPresent() || !referenceRules) {
            return ours;
        }
        return listing.stream().filter(o -> o.name().equals(ManifestKeys.REFERENCE_NAME)).findFirst();
    }

    /** Resolves a data partition's listing, where the reference implementation's {@code manifest.json} counts. */
    public static PartitionSnapshot resolve(PartitionKey partition, List<ObjectInfo> listing,
            Optional<Manifest> manifest) throws MissingFileException {
        return resolve(partition, listing, manifest, true);
    }

    /**
     * @param listing        one listing of the partition directory
     * @param manifest       the decoded content of {@link #currentManifest(List, boolean)} (for {@code manifest.json},
     *                       its {@link ReferenceManifest#asManifest()}); must be present iff that is
     * @param referenceRules whether the reference implementation's {@code manifest.json} governs this directory (a
     *                       data partition); where it does not (an audit day) it is an ignored object
     * @throws MissingFileException if the manifest names a file the listing does not hold
     */
    public static PartitionSnapshot resolve(PartitionKey partition, List<ObjectInfo> listing,
            Optional<Manifest> manifest, boolean referenceRules) throws MissingFileException {
        return resolve(partition, listing, manifest, referenceRules, true);
    }

    /**
     * Resolves a day partition's listing (STORAGE.md §4.15): its live set is exactly its manifest's {@code files};
     * nothing lands ingest files there, so an unnamed {@code <uuidv7>.parquet} is an ignored object, and the
     * reference implementation's {@code manifest.json} does not govern it.
     *
     * @param label the key that names the day in the snapshot ({@link DayPartition#label()})
     */
    public static PartitionSnapshot resolveDay(PartitionKey label, List<ObjectInfo> listing,
            Optional<Manifest> manifest) throws MissingFileException {
        return resolve(label, listing, manifest, false, false);
    }

    /**
     * Resolves an hour that {@code cover} validly covers (STORAGE.md §4.15; the caller has checked it with
     * {@link CoverValidity}). The hour's manifest is not read: its rows are in the day partition's files. In the
     * listing, every name of the cover and every compacted file is {@code covered} (invisible; GC collects it after
     * the grace from {@link ValidCover#accountedSince()}), every other ingest file is live (late data), manifests
     * below the cover's generation are superseded and the one at it is current.
     */
    public static PartitionSnapshot resolveCovered(PartitionKey partition, List<ObjectInfo> listing,
            ValidCover cover) {
        List<ObjectInfo> sorted = new ArrayList<>(listing);
        sorted.sort(Comparator.comparing(ObjectInfo::key));
        Optional<ObjectInfo> current = highestManifest(sorted);
        if (!CoverValidity.isValid(cover.cover(), sorted, current)) {
            throw new IllegalArgumentException("BUG: the cover of " + partition + " at generation "
                    + cover.cover().generation() + " is void against this listing");
        }
        long generation = cover.cover().generation();
        Set<String> accounted = new HashSet<>(cover.cover().names());
        List<ObjectInfo> live = new ArrayList<>();
        List<ObjectInfo> covered = new ArrayList<>();
        List<ObjectInfo> temps = new ArrayList<>();
        List<ObjectInfo> superseded = new ArrayList<>();
        List<ObjectInfo> ignored = new ArrayList<>();
        for (ObjectInfo o : sorted) {
            String name = o.name();
            long gen = ManifestKeys.generationOfName(name);
            if (gen >= 0) {
                if (gen < generation) {
                    superseded.add(o);
                }
            } else if (accounted.contains(name) || FileNames.isCompactedFile(name) || FileNames.isShareRecord(name)) {
                covered.add(o);
            } else if (FileNames.isTempFile(name)) {
                temps.add(o);
            } else if (FileNames.isIngestFile(name)) {
                live.add(o); // late data landed after the cover: visible at once, beside the day's rows
            } else {
                ignored.add(o);
            }
        }
        return new PartitionSnapshot(partition, generation, Optional.empty(), current, live, List.of(), List.of(),
                temps, superseded, ignored, sorted, Optional.of(cover), covered);
    }

    private static PartitionSnapshot resolve(PartitionKey partition, List<ObjectInfo> listing,
            Optional<Manifest> manifest, boolean referenceRules, boolean ingestLive) throws MissingFileException {
        List<ObjectInfo> sorted = new ArrayList<>(listing);
        sorted.sort(Comparator.comparing(ObjectInfo::key));
        Optional<ObjectInfo> current = currentManifest(sorted, referenceRules);
        if (current.isPresent() != manifest.isPresent()) {
            throw new IllegalArgumentException("BUG: manifest " + (manifest.isPresent() ? "given" : "missing")
                    + " but the listing of " + partition + " has " + (current.isPresent() ? "one" : "none"));
        }
        boolean reference = current.isPresent() && current.get().name().equals(ManifestKeys.REFERENCE_NAME);
        long generation;
        if (reference) {
            generation = manifest.get().generation();
        } else {
            generation = current.map(o -> ManifestKeys.generationOfName(o.name())).orElse(0L);
            if (manifest.isPresent() && manifest.get().generation() != generation) {
                throw new IllegalArgumentException("BUG: manifest generation " + manifest.get().generation()
                        + " given for the listing's current generation " + generation);
            }
        }
        Set<String> files = manifest.map(Manifest::fileNames).orElse(Set.of());
        Set<String> retired = manifest.map(Manifest::retiredNames).orElse(Set.of());

        List<ObjectInfo> live = new ArrayList<>();
        List<ObjectInfo> retiredPresent = new ArrayList<>();
        List<ObjectInfo> orphans = new ArrayList<>();
        List<ObjectInfo> temps = new ArrayList<>();
        List<ObjectInfo> superseded = new ArrayList<>();
        List<ObjectInfo> ignored = new ArrayList<>();
        Set<String> present = new HashSet<>();
        for (ObjectInfo o : sorted) {
            String name = o.name();
            present.add(name);
            long gen = ManifestKeys.generationOfName(name);
            if (gen >= 0) {
                if (gen < generation) {
                    superseded.add(o);
                }
            } else if (referenceRules && name.equals(ManifestKeys.REFERENCE_NAME)) {
                if (!reference) {
                    superseded.add(o); // a manifest of ours took the partition over
                }
            } else if (files.contains(name)) {
                live.add(o);
            } else if (retired.contains(name)) {
                retiredPresent.add(o);
            } else if (FileNames.isTempFile(name)) {
                temps.add(o);
            } else if (reference && name.endsWith(FileNames.PARQUET)) {
                orphans.add(o); // the reference writes at the final key: unnamed means a lost race or a crash
            } else if (FileNames.isShareRecord(name)) {
                orphans.add(o); // a shared rewrite's record: never read as data, collected after the grace
            } else if (ingestLive && FileNames.isIngestFile(name)) {
                live.add(o); // late data (or generation 0): visible at once
            } else if (FileNames.isCompactedFile(name)) {
                orphans.add(o); // an output whose commit failed or lost: never visible
            } else {
                if (name.startsWith(FileNames.MANIFEST_PREFIX)) {
                    LOG.warn("ignoring non-canonical manifest name {} in {}", o.key(), partition);
                }
                ignored.add(o);
            }
        }
        for (String f : files) {
            if (!present.contains(f)) {
                throw new MissingFileException(current.get().key(), f);
            }
        }
        return new PartitionSnapshot(partition, generation, manifest, current, live, retiredPresent, orphans, temps,
                superseded, ignored, sorted);
    }
}
