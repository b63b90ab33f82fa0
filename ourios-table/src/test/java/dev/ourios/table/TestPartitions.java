package dev.ourios.table;

import dev.ourios.core.FileNames;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;

/** Builds partition states on a real local store: plain bytes for data files (live-set logic never reads them). */
final class TestPartitions {
    static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    static final PartitionKey P = new PartitionKey("acme", 2026, 11, 29, 10);

    final LocalObjectStore store;
    final ManifestCodec codec = new ManifestCodec();
    final TableReader reader;
    private final Uuid7 uuids;

    TestPartitions(Path root, long seed) {
        this.store = new LocalObjectStore(root);
        this.reader = new TableReader(store, codec);
        this.uuids = new Uuid7(Clock.fixed(NOW, ZoneOffset.UTC), new Random(seed));
    }

    String ingestName() {
        return uuids.next() + FileNames.PARQUET;
    }

    String compactedName() {
        return uuids.next() + FileNames.COMPACTED;
    }

    /** Writes {@code name} into the partition with the given last-modified time. */
    String put(PartitionKey p, String name, Instant modified) {
        String key = p.dataPrefix() + name;
        try {
            store.put(key, ("bytes of " + name).getBytes(StandardCharsets.UTF_8));
            touch(key, modified);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return key;
    }

    String put(String name) {
        return put(P, name, NOW);
    }

    /** Writes raw manifest bytes (possibly invalid) under a generation's canonical name. */
    String putManifestBytes(PartitionKey p, long generation, String json, Instant modified) throws IOException {
        String key = ManifestKeys.key(p, generation);
        store.put(key, json.getBytes(StandardCharsets.UTF_8));
        touch(key, modified);
        return key;
    }

    String putManifest(PartitionKey p, Manifest m, Instant modified) throws IOException {
        String key = ManifestKeys.key(p, m.generation());
        store.put(key, codec.encode(key, m));
        touch(key, modified);
        return key;
    }

    void touch(String key, Instant modified) throws IOException {
        Files.setLastModifiedTime(store.root().resolve(key), FileTime.from(modified));
    }

    boolean exists(String key) {
        return Files.exists(store.root().resolve(key));
    }

    static List<String> names(List<ObjectInfo> objects) {
        return objects.stream().map(ObjectInfo::name).toList();
    }
}
