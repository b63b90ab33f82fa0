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
 * {@link #DEFAULT_MANIFEST_CACHE_BYTES} (an estimate of their heap), least recently used out first.
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

    public TableReader(ObjectStore store, ManifestCodec codec) {
        this(store, codec, DEFAULT_MANIFEST_CACHE_BYTES);
    }

    /** A reader keeping at most {@code manifestCacheBytes} of decoded manifests (0: every snapshot reads one). */
    public TableReader(ObjectStore store, ManifestCodec codec, long manifestCacheBytes) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.codec = Objects.requireNonNull(codec, "codec is null");
        this.manifests = new WeightedLru<>(manifestCacheBytes);
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
        PartitionKey partition = label;
        boolean referenceRules = prefix.equals(label.dataPrefix());
        List<ObjectInfo> listing = store.listObjects(prefix);
        Optional<ObjectInfo> current = LiveSetResolver.currentManifest(listing, referenceRules);
        Optional<Manifest> manifest = Optional.empty();
        if (current.isPresent()) {
            // Manifests are create-only and the highest one is never collected, so this read sees what was listed.
            // manifest.json is the reference implementation's and mutable: what this read sees is what rules.
            manifest = Optional.of(current(current.get()));
        }
        return LiveSetResolver.resolve(partition, listing, manifest, referenceRules);
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

    /** Reads and validates one generation's manifest. */
    public Manifest readManifest(PartitionKey partition, long generation) throws IOException {
        String key = ManifestKeys.key(partition, generation);
        return codec.decode(key, store.readAllBytes(key));
    }
}
