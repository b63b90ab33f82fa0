package dev.ourios.table;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A partition as one listing showed it, classified (STORAGE.md §3). Every object of the listing is in exactly
 * one of {@code live}, {@code retiredPresent}, {@code orphans}, {@code temps}, {@code manifests}
 * ({@code currentManifest} plus {@code supersededManifests}) or {@code ignored}. All lists are sorted by key.
 *
 * @param partition           the partition
 * @param generation          the current generation: the highest canonical manifest present, else the generation of
 *                            the reference implementation's {@code manifest.json}, else 0
 * @param manifest            the current manifest (for {@code manifest.json}, {@link ReferenceManifest#asManifest()}),
 *                            empty when the partition has none
 * @param currentManifest     the object holding the current manifest, empty when the partition has none
 * @param live                {@code manifest.files} ∪ ingest files named neither in files nor retired; exactly
 *                            {@code manifest.files} while {@code manifest.json} rules
 * @param retiredPresent      retired files still present: invisible, deleted by GC after the grace period
 * @param orphans             {@code *.compacted.parquet} files no manifest names (failed or lost commits); while
 *                            {@code manifest.json} rules, every {@code *.parquet} it does not name
 * @param temps               temp siblings of in-flight or abandoned writes
 * @param supersededManifests canonical manifests below the current generation, and {@code manifest.json} once a
 *                            manifest of ours rules
 * @param ignored             anything else (never read, never deleted)
 * @param listing             the whole listing the snapshot was made from
 * @param cover               the day partition's cover of this hour when it is valid (STORAGE.md §4.15): the hour's
 *                            rows are then in the day partition's files, {@code manifest} is empty (the hour's manifest
 *                            is not read) and {@code live} holds only its late ingest files
 * @param covered             with a valid cover, the objects of the hour it accounts for (every name of the cover
 *                            present, and every compacted file): invisible, collected by GC after the grace; empty
 *                            otherwise
 */
public record PartitionSnapshot(PartitionKey partition, long generation, Optional<Manifest> manifest,
        Optional<ObjectInfo> currentManifest, List<ObjectInfo> live, List<ObjectInfo> retiredPresent,
        List<ObjectInfo> orphans, List<ObjectInfo> temps, List<ObjectInfo> supersededManifests,
        List<ObjectInfo> ignored, List<ObjectInfo> listing, Optional<ValidCover> cover, List<ObjectInfo> covered) {

    /** A snapshot of a directory no day partition covers. */
    public PartitionSnapshot(PartitionKey partition, long generation, Optional<Manifest> manifest,
            Optional<ObjectInfo> currentManifest, List<ObjectInfo> live, List<ObjectInfo> retiredPresent,
            List<ObjectInfo> orphans, List<ObjectInfo> temps, List<ObjectInfo> supersededManifests,
            List<ObjectInfo> ignored, List<ObjectInfo> listing) {
        this(partition, generation, manifest, currentManifest, live, retiredPresent, orphans, temps,
                supersededManifests, ignored, listing, Optional.empty(), List.of());
    }

    public PartitionSnapshot {
        live = List.copyOf(live);
        retiredPresent = List.copyOf(retiredPresent);
        orphans = List.copyOf(orphans);
        temps = List.copyOf(temps);
        supersededManifests = List.copyOf(supersededManifests);
        ignored = List.copyOf(ignored);
        listing = List.copyOf(listing);
        covered = List.copyOf(covered);
    }

    /** True when a day partition validly covers this hour (STORAGE.md §4.15). */
    public boolean isCovered() {
        return cover.isPresent();
    }

    /**
     * True while the reference implementation's {@code manifest.json} rules the partition (no manifest of ours is
     * present, STORAGE.md §3.6): the next commit takes the partition over.
     */
    public boolean ruledByReference() {
        return currentManifest.map(o -> o.name().equals(ManifestKeys.REFERENCE_NAME)).orElse(false);
    }

    /** Names of the live files, sorted. */
    public Set<String> liveNames() {
        Set<String> out = new LinkedHashSet<>();
        live.forEach(o -> out.add(o.name()));
        return out;
    }

    /** True if the listing held an object of this name (in any category). */
    public boolean isPresent(String name) {
        return listing.stream().anyMatch(o -> o.name().equals(name));
    }

    /**
     * Live ingest files the current manifest does not name: data that landed after the last commit (or every
     * ingest file at generation 0). Non-empty after a commit means late data re-flagged the partition.
     */
    public List<ObjectInfo> unmanifestedIngest() {
        Set<String> named = manifest.map(Manifest::fileNames).orElse(Set.of());
        return live.stream().filter(o -> FileNames.isIngestFile(o.name()) && !named.contains(o.name())).toList();
    }

    /** Sum of the live files' sizes in bytes. */
    public long liveBytes() {
        return live.stream().mapToLong(ObjectInfo::size).sum();
    }
}
