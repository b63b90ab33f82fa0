package dev.ourios.table;

import dev.ourios.core.PartitionKey;
import dev.ourios.core.WeightedLru;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Resolves a partition's current generation and live set from one listing plus one manifest read.
 *
 * <p>Manifests of ours are create-only and never rewritten (STORAGE.md §3.1), so a decoded one is kept, keyed by its
 * listing entry (key, size and last-modified time), and the next snapshot that lists the same current manifest
 * parses nothing: the listing still decides which manifest is current, every time. The reference implementation's
 * {@code manifest.json} is mutable and is read every time. Kept manifests are bounded by
 * {@link #DEFAULT_MANIFEST_CACHE_BYTES} (an estimate of their heap), least recently used out first. So are resolved
 * snapshots, under a bound of their own of the same size: a listing equal to one resolved before (every entry's key,
 * size and last-modified time) whose current manifest is one of ours resolves to the same snapshot, so a repeated
 * query lists the partition but decides nothing again. A validly covered hour's snapshot is kept alike, by its
 * listing and the day's current manifest (create-only), under a bound of its own of the same size.
 */
public final class TableReader {
    /** The default bound of kept manifests: thousands of partitions' current manifests. */
    public static final long DEFAULT_MANIFEST_CACHE_BYTES = 8L << 20;
    /** Heap a decoded manifest holds per byte of its JSON (names as strings, retirements as records), rounded up. */
    static final int HEAP_PER_MANIFEST_BYTE = 3;

    private final ObjectStore store;
    private final ManifestCodec codec;
    private final ReferenceManifestCodec referenceCodec = new ReferenceManifestCodec();
    private final WeightedLru<ObjectInfo, Manifest> manifests;
    /** Snapshots by the listing they were resolved from ({@link Resolved}), under the manifests' bound. */
    private final WeightedLru<Resolved, PartitionSnapshot> resolved;
    /** Snapshots of validly covered hours ({@link Covered}), under a bound of their own of the same size. */
    private final WeightedLru<Covered, PartitionSnapshot> covered;

    public TableReader(ObjectStore store, ManifestCodec codec) {
        this(store, codec, DEFAULT_MANIFEST_CACHE_BYTES);
    }

    /** A reader keeping at most {@code manifestCacheBytes} of decoded manifests (0: every snapshot reads one). */
    public TableReader(ObjectStore store, ManifestCodec codec, long manifestCacheBytes) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.codec = Objects.requireNonNull(codec, "codec is null");
        this.manifests = new WeightedLru<>(manifestCacheBytes);
        this.resolved = new WeightedLru<>(manifestCacheBytes);
        this.covered = new WeightedLru<>(manifestCacheBytes);
    }

    /**
     * @throws ManifestException if the current manifest (ours, or the reference implementation's
     *                           {@code manifest.json} where none of ours is present) is malformed or invalid, or
     *                           names a missing file
     */
    public PartitionSnapshot snapshot(PartitionKey partition) throws IOException {
        return snapshot(partition, partition.dataPrefix());
    }

    /**
     * The snapshot of the directory {@code prefix} that keeps files and manifests as a partition does (an audit
     * day); {@code label} names it in the snapshot and in messages. The reference implementation's
     * {@code manifest.json} governs data partitions only (STORAGE.md §3.6): in any other directory it is ignored,
     * so an event file of ours landed there is never taken for its orphan.
     */
    public PartitionSnapshot snapshot(PartitionKey label, String prefix) throws IOException {
        boolean hour = prefix.equals(label.dataPrefix());
        List<ObjectInfo> listing = store.listObjects(prefix);
        if (hour) {
            Optional<ValidCover> cover = dayCovers(DayPartition.of(label)).validCover(label.hour(), listing);
            if (cover.isPresent()) {
                throw new CoveredHourException(label, cover.get());
            }
        }
        return resolveOwn(label, listing, hour);
    }

    /**
     * The snapshot of an hour as a reader of day partitions sees it (STORAGE.md §4.15): when its day partition
     * validly covers it, the covered snapshot ({@link PartitionSnapshot#cover()} present, its {@code live} the late
     * ingest files alone; the hour's rows are those of its hour in the day partition's files); otherwise the hour's
     * own snapshot, as {@link #snapshot(PartitionKey)} gives it. One listing of the hour, one of the day partition and
     * one read of each current manifest needed.
     *
     * @throws ManifestException if the day partition's current manifest, or (for an hour not validly covered) the
     *                           hour's, is malformed, invalid, or names a missing file
     */
    public PartitionSnapshot hourSnapshot(PartitionKey partition) throws IOException {
        List<ObjectInfo> listing = store.listObjects(partition.dataPrefix());
        return hourSnapshot(partition, listing, dayCovers(DayPartition.of(partition)));
    }

    /**
     * As {@link #hourSnapshot(PartitionKey)}, with the covers of the hour's day already read ({@code day}, from
     * {@link #dayCovers}; a rollup reads them once for its 24 hours). The hour is listed after them, so a cover the
     * listing shows valid was in the day manifest read.
     */
    public PartitionSnapshot hourSnapshot(PartitionKey partition, DayCovers day) throws IOException {
        if (!day.day().equals(DayPartition.of(partition))) {
            throw new IllegalArgumentException("BUG: the covers of " + day.day() + " given for " + partition);
        }
        return hourSnapshot(partition, store.listObjects(partition.dataPrefix()), day);
    }

    /**
     * As {@link #hourSnapshot(PartitionKey, DayCovers)} for several hours of one day, from one listing of the day's
     * whole directory ({@link dev.ourios.store.ObjectStore#listTree}: one request on S3 where the hours one at a
     * time cost one each), taken after the covers were read, as each hour's own listing would be.
     */
    public java.util.Map<PartitionKey, PartitionSnapshot> hourSnapshots(List<PartitionKey> hours, DayCovers day)
            throws IOException {
        for (PartitionKey h : hours) {
            if (!day.day().equals(DayPartition.of(h))) {
                throw new IllegalArgumentException("BUG: the covers of " + day.day() + " given for " + h);
            }
        }
        String dayPrefix = day.day().dayPrefix();
        List<List<ObjectInfo>> byHour = new java.util.ArrayList<>(java.util.Collections.nCopies(24, null));
        for (ObjectInfo o : store.listTree(dayPrefix)) {
            int hour = hourOfTreeKey(o.key(), dayPrefix.length());
            if (hour >= 0) {
                if (byHour.get(hour) == null) {
                    byHour.set(hour, new java.util.ArrayList<>());
                }
                byHour.get(hour).add(o);
            }
        }
        java.util.Map<PartitionKey, PartitionSnapshot> out = new java.util.LinkedHashMap<>();
        for (PartitionKey h : hours) {
            // Objects directly in the hour's directory, sorted by key as a one-level listing gives them.
            List<ObjectInfo> listing = byHour.get(h.hour());
            out.put(h, hourSnapshot(h, listing == null ? List.of() : listing, day));
        }
        return out;
    }

    /**
     * The hour HH of a key {@code <day prefix>hour=HH/<name>} of a day's tree listing (an object directly in a
     * canonical hour directory), else -1 (the day partition's objects, anything deeper, any other name): the key's
     * tail is read in place rather than each hour's prefix built to look it up.
     */
    static int hourOfTreeKey(String key, int dayPrefixLength) {
        int at = dayPrefixLength;
        if (!key.startsWith("hour=", at) || key.length() < at + 9 || key.charAt(at + 7) != '/'
                || key.indexOf('/', at + 8) >= 0) {
            return -1;
        }
        char tens = key.charAt(at + 5);
        char ones = key.charAt(at + 6);
        if (tens < '0' || tens > '2' || ones < '0' || ones > '9') {
            return -1;
        }
        int hour = (tens - '0') * 10 + (ones - '0');
        return hour < 24 ? hour : -1;
    }

    private PartitionSnapshot hourSnapshot(PartitionKey partition, List<ObjectInfo> listing, DayCovers day)
            throws IOException {
        if (day.cover(partition.hour()).isEmpty()) {
            return resolveOwn(partition, listing, true);
        }
        // A covered hour's snapshot is a function of its listing and the day's create-only current manifest.
        Covered key = new Covered(new Resolved(partition, true, listing), day.currentManifest().orElseThrow());
        Optional<PartitionSnapshot> known = covered.get(key);
        if (known.isPresent()) {
            return known.get();
        }
        Optional<ValidCover> cover = day.validCover(partition.hour(), listing);
        if (cover.isPresent()) {
            PartitionSnapshot snapshot = LiveSetResolver.resolveCovered(partition, listing, cover.get());
            covered.put(key, snapshot, 256 + 128L * listing.size());
            return snapshot;
        }
        return resolveOwn(partition, listing, true);
    }

    /**
     * The day partition's covers: one listing of its directory and one read of its current manifest (kept like an
     * hour's, see the class comment).
     *
     * @throws ManifestException if that manifest is malformed or invalid
     */
    public DayCovers dayCovers(DayPartition day) throws IOException {
        List<ObjectInfo> listing = store.listObjects(day.prefix());
        Optional<ObjectInfo> current = LiveSetResolver.highestManifest(listing);
        if (current.isEmpty()) {
            return DayCovers.none(day);
        }
        return new DayCovers(day, current, Optional.of(current(current.get())));
    }

    /**
     * The day partition's own snapshot (STORAGE.md §4.15): its live set is exactly its manifest's files.
     *
     * @throws ManifestException if its current manifest is malformed, invalid or names a missing file
     */
    public PartitionSnapshot daySnapshot(DayPartition day) throws IOException {
        List<ObjectInfo> listing = store.listObjects(day.prefix());
        Optional<ObjectInfo> current = LiveSetResolver.highestManifest(listing);
        Optional<Manifest> manifest = current.isEmpty() ? Optional.empty() : Optional.of(current(current.get()));
        return LiveSetResolver.resolveDay(day.label(), listing, manifest);
    }

    private PartitionSnapshot resolveOwn(PartitionKey partition, List<ObjectInfo> listing, boolean referenceRules)
            throws IOException {
        Resolved key = new Resolved(partition, referenceRules, listing);
        Optional<PartitionSnapshot> known = resolved.get(key);
        if (known.isPresent()) {
            return known.get();
        }
        Optional<ObjectInfo> current = LiveSetResolver.currentManifest(listing, referenceRules);
        Optional<Manifest> manifest = Optional.empty();
        if (current.isPresent()) {
            // Manifests are create-only and the highest one is never collected, so this read sees what was listed.
            // manifest.json is the reference implementation's and mutable: what this read sees is what rules.
            manifest = Optional.of(current(current.get()));
        }
        PartitionSnapshot snapshot = LiveSetResolver.resolve(partition, listing, manifest, referenceRules);
        if (current.isEmpty() || !ManifestKeys.isReference(current.get().key())) {
            resolved.put(key, snapshot, 256 + 128L * listing.size());
        }
        return snapshot;
    }

    /**
     * A partition's listing as resolved: the snapshot is a function of the listing and the current manifest it
     * names, which is create-only (one of ours), so the same listing resolves to the same snapshot. Not kept where the
     * current manifest is the reference implementation's mutable {@code manifest.json}.
     */
    private record Resolved(PartitionKey partition, boolean referenceRules, List<ObjectInfo> listing) {
        /**
         * Of the listing, each entry's size, time and key length, not its key's characters: a listing's keys are new
         * strings every time, whose hashes would be computed afresh (equality still compares every key).
         */
        @Override
        public int hashCode() {
            int h = partition.hashCode() * 31 + Boolean.hashCode(referenceRules);
            for (ObjectInfo o : listing) {
                h = (h * 31 + Long.hashCode(o.size())) * 31 + o.lastModified().hashCode();
                h = h * 31 + o.key().length();
            }
            return h;
        }
    }

    /** An hour's listing with the day manifest whose cover of the hour it was resolved against. */
    private record Covered(Resolved hour, ObjectInfo dayManifest) {
    }

    /** The listed current manifest, decoded: kept when it is one of ours (see the class comment). */
    private Manifest current(ObjectInfo listed) throws IOException {
        String key = listed.key();
        if (ManifestKeys.isReference(key)) {
            return referenceCodec.decode(key, store.readAllBytes(key)).asManifest();
        }
        Optional<Manifest> kept = manifests.get(listed);
        if (kept.isPresent()) {
            return kept.get();
        }
        byte[] bytes = store.readAllBytes(key);
        Manifest decoded = codec.decode(key, bytes);
        manifests.put(listed, decoded, 64 + (long) bytes.length * HEAP_PER_MANIFEST_BYTE);
        return decoded;
    }

    /** The decoded manifests kept now (for tests of the bound). */
    int keptManifests() {
        return manifests.size();
    }

    /** Reads and validates the manifest object {@code key} (an hour's or a day partition's). */
    public Manifest readManifest(String key) throws IOException {
        return codec.decode(key, store.readAllBytes(key));
    }

    /** Reads and validates one generation's manifest. */
    public Manifest readManifest(PartitionKey partition, long generation) throws IOException {
        String key = ManifestKeys.key(partition, generation);
        return codec.decode(key, store.readAllBytes(key));
    }
}
