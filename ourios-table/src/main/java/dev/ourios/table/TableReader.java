package dev.ourios.table;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Resolves a partition's current generation and live set from one listing plus one manifest read. */
public final class TableReader {
    private final ObjectStore store;
    private final ManifestCodec codec;
    private final ReferenceManifestCodec referenceCodec = new ReferenceManifestCodec();

    public TableReader(ObjectStore store, ManifestCodec codec) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.codec = Objects.requireNonNull(codec, "codec is null");
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
            String key = current.get().key();
            byte[] bytes = store.readAllBytes(key);
            manifest = Optional.of(ManifestKeys.isReference(key) ? referenceCodec.decode(key, bytes).asManifest()
                    : codec.decode(key, bytes));
        }
        return LiveSetResolver.resolve(partition, listing, manifest, referenceRules);
    }

    /** Reads and validates one generation's manifest. */
    public Manifest readManifest(PartitionKey partition, long generation) throws IOException {
        String key = ManifestKeys.key(partition, generation);
        return codec.decode(key, store.readAllBytes(key));
    }
}
