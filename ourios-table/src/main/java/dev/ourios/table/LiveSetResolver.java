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
 */
public final class LiveSetResolver {
    private static final Logger LOG = LoggerFactory.getLogger(LiveSetResolver.class);

    private LiveSetResolver() {
    }

    /** The highest canonical manifest in a listing, if any. */
    public static Optional<ObjectInfo> highestManifest(List<ObjectInfo> listing) {
        return listing.stream().filter(o -> ManifestKeys.generationOfName(o.name()) >= 0)
                .max(Comparator.comparingLong(o -> ManifestKeys.generationOfName(o.name())));
    }

    /**
     * @param listing  one listing of the partition directory
     * @param manifest the decoded content of {@link #highestManifest(List)}; must be present iff that is
     * @throws MissingFileException if the manifest names a file the listing does not hold
     */
    public static PartitionSnapshot resolve(PartitionKey partition, List<ObjectInfo> listing,
            Optional<Manifest> manifest) throws MissingFileException {
        List<ObjectInfo> sorted = new ArrayList<>(listing);
        sorted.sort(Comparator.comparing(ObjectInfo::key));
        Optional<ObjectInfo> current = highestManifest(sorted);
        if (current.isPresent() != manifest.isPresent()) {
            throw new IllegalArgumentException("BUG: manifest " + (manifest.isPresent() ? "given" : "missing")
                    + " but the listing of " + partition + " has " + (current.isPresent() ? "one" : "none"));
        }
        long generation = current.map(o -> ManifestKeys.generationOfName(o.name())).orElse(0L);
        if (manifest.isPresent() && manifest.get().generation() != generation) {
            throw new IllegalArgumentException("BUG: manifest generation " + manifest.get().generation()
                    + " given for the listing's current generation " + generation);
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
            } else if (files.contains(name)) {
                live.add(o);
            } else if (retired.contains(name)) {
                retiredPresent.add(o);
            } else if (FileNames.isTempFile(name)) {
                temps.add(o);
            } else if (FileNames.isIngestFile(name)) {
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
