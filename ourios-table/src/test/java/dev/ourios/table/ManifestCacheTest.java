package dev.ourios.table;

import static dev.ourios.table.TestPartitions.NOW;
import static dev.ourios.table.TestPartitions.P;
import static dev.ourios.table.TestPartitions.names;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.QuietListings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decoded manifests a {@link TableReader} keeps (STORAGE.md §3.1: ours are create-only): a snapshot takes the
 * current manifest from the listing every time and reads it only when it is not kept; a commit, a partition wiped
 * and written again, and the reference implementation's mutable {@code manifest.json} are always seen as they are
 * now; the kept manifests stay within their bound.
 */
class ManifestCacheTest {
    @TempDir
    Path root;
    TestPartitions t;
    /** Manifest reads (whole-object reads) through {@link #counted}. */
    final AtomicInteger reads = new AtomicInteger();
    ObjectStore counted;

    @BeforeEach
    void setUp() {
        t = new TestPartitions(root, 3);
        counted = new ForwardingObjectStore(t.store) {
            @Override
            public InputStream openStream(String key) throws IOException {
                reads.incrementAndGet();
                return super.openStream(key);
            }

            @Override
            public byte[] readAllBytes(String key) throws IOException {
                reads.incrementAndGet();
                return super.readAllBytes(key);
            }
        };
    }

    /** A fresh seed for {@code what}, printed. */
    private static long seed(String what) {
        long seed = System.nanoTime();
        System.out.println(what + " seed " + seed);
        return seed;
    }

    @Test
    void aKeptManifestIsNotReadAgainAndEveryCommitIsSeen() throws IOException {
        long seed = seed("ManifestCacheTest");
        Random rnd = new Random(seed);
        TableReader reader = new TableReader(counted, t.codec);
        List<String> live = new ArrayList<>();
        for (long generation = 1; generation <= 12; generation++) {
            String added = t.put(t.compactedName());
            live.add(added.substring(added.lastIndexOf('/') + 1));
            if (live.size() > 1 && rnd.nextBoolean()) {
                live.remove(rnd.nextInt(live.size() - 1));
            }
            t.putManifest(P, Manifest.of(generation, live, List.of(), null), NOW);
            int before = reads.get();
            for (int i = 0; i < 1 + rnd.nextInt(4); i++) {
                PartitionSnapshot s = reader.snapshot(P);
                assertEquals(generation, s.generation(), "seed " + seed);
                assertEquals(live.stream().sorted().toList(), names(s.live()), "seed " + seed);
            }
            assertEquals(before + 1, reads.get(), "seed " + seed + ": generation " + generation
                    + " was read other than once");
        }
    }

    @Test
    void aKeptSnapshotIsTheOneResolvedAfresh() throws IOException {
        long seed = seed("ManifestCacheTest snapshots");
        Random rnd = new Random(seed);
        TableReader kept = new TableReader(counted, t.codec);
        TableReader fresh = new TableReader(t.store, t.codec, 0);
        List<String> live = new ArrayList<>();
        List<String> ingest = new ArrayList<>();
        long generation = 0;
        for (int step = 0; step < 60; step++) {
            switch (rnd.nextInt(4)) {
                case 0 -> ingest.add(t.put(t.ingestName())); // late data: the listing alone changes
                case 1 -> { // a commit
                    String added = t.put(t.compactedName());
                    live.add(added.substring(added.lastIndexOf('/') + 1));
                    t.putManifest(P, Manifest.of(++generation, live, List.of(), null), NOW);
                }
                case 2 -> { // an ingest file collected
                    if (!ingest.isEmpty()) {
                        t.store.delete(ingest.remove(rnd.nextInt(ingest.size())));
                    }
                }
                default -> { } // nothing changed: the kept snapshot is taken
            }
            for (int i = 0; i < 1 + rnd.nextInt(3); i++) {
                assertEquals(fresh.snapshot(P), kept.snapshot(P), "seed " + seed + " step " + step);
            }
        }
    }

    /**
     * As above through kept listings (serve's read side): the partition's directory is made quiet at random (its
     * modification time set into the past, later each time), so some snapshots come from a kept listing and a kept
     * resolution, and every one equals a snapshot resolved afresh from a fresh listing.
     */
    @Test
    void aSnapshotOverKeptListingsIsTheOneResolvedAfresh() throws IOException {
        long seed = seed("ManifestCacheTest kept listings");
        Random rnd = new Random(seed);
        TableReader kept = new TableReader(QuietListings.over(counted), t.codec);
        TableReader fresh = new TableReader(t.store, t.codec, 0);
        Path dir = root.resolve(P.dataPrefix());
        Instant age = Instant.now().minus(Duration.ofHours(1));
        List<String> live = new ArrayList<>();
        List<String> ingest = new ArrayList<>();
        long generation = 0;
        for (int step = 0; step < 80; step++) {
            switch (rnd.nextInt(5)) {
                case 0 -> ingest.add(t.put(t.ingestName()));
                case 1 -> {
                    String added = t.put(t.compactedName());
                    live.add(added.substring(added.lastIndexOf('/') + 1));
                    t.putManifest(P, Manifest.of(++generation, live, List.of(), null), NOW);
                }
                case 2 -> {
                    if (!ingest.isEmpty()) {
                        t.store.delete(ingest.remove(rnd.nextInt(ingest.size())));
                    }
                }
                case 3 -> {
                    if (Files.isDirectory(dir)) {
                        age = age.plusMillis(1);
                        Files.setLastModifiedTime(dir, FileTime.from(age));
                    }
                }
                default -> { }
            }
            for (int i = 0; i < 1 + rnd.nextInt(3); i++) {
                assertEquals(fresh.snapshot(P), kept.snapshot(P), "seed " + seed + " step " + step);
            }
        }
    }

    @Test
    void aPartitionWrittenAgainUnderTheSameNamesIsReadAgain() throws IOException {
        TableReader reader = new TableReader(counted, t.codec);
        String a = t.put(t.compactedName());
        String aName = a.substring(a.lastIndexOf('/') + 1);
        t.putManifest(P, Manifest.of(1, List.of(aName), List.of(), null), NOW);
        assertEquals(List.of(aName), names(reader.snapshot(P).live()));
        // The directory goes whole and comes back with a manifest of the same name: another size or time.
        t.store.delete(a);
        t.store.delete(ManifestKeys.key(P, 1));
        String b = t.put(t.compactedName());
        String c = t.put(t.compactedName());
        List<String> now = List.of(b.substring(b.lastIndexOf('/') + 1), c.substring(c.lastIndexOf('/') + 1));
        t.putManifest(P, Manifest.of(1, now, List.of(), null), NOW.plusSeconds(1));
        assertEquals(now.stream().sorted().toList(), names(reader.snapshot(P).live()));
    }

    @Test
    void theReferenceManifestIsReadEveryTime() throws IOException {
        TableReader reader = new TableReader(counted, t.codec);
        String a = t.put(t.ingestName());
        String b = t.put(t.ingestName());
        String aName = a.substring(a.lastIndexOf('/') + 1);
        String bName = b.substring(b.lastIndexOf('/') + 1);
        String ref = P.dataPrefix() + ManifestKeys.REFERENCE_NAME;
        // Same length, same time: only its content differs.
        t.store.put(ref, ("{\"generation\":1,\"files\":[\"" + aName + "\"]}").getBytes(StandardCharsets.UTF_8));
        t.touch(ref, NOW);
        assertEquals(List.of(aName), names(reader.snapshot(P).live()));
        t.store.put(ref, ("{\"generation\":1,\"files\":[\"" + bName + "\"]}").getBytes(StandardCharsets.UTF_8));
        t.touch(ref, NOW);
        assertEquals(List.of(bName), names(reader.snapshot(P).live()));
    }

    @Test
    void theKeptManifestsStayWithinTheirBound() throws IOException {
        long seed = seed("ManifestCacheTest bound");
        Random rnd = new Random(seed);
        String file = t.put(t.compactedName());
        String name = file.substring(file.lastIndexOf('/') + 1);
        long one = 64 + (long) t.codec.encode(ManifestKeys.key(P, 1), Manifest.of(1, List.of(name), List.of(), null))
                .length * TableReader.HEAP_PER_MANIFEST_BYTE;
        int fits = 1 + rnd.nextInt(4);
        TableReader reader = new TableReader(counted, t.codec, one * fits + one / 2);
        List<PartitionKey> partitions = new ArrayList<>();
        for (int h = 0; h < 8; h++) {
            PartitionKey p = new PartitionKey("acme", 2026, 11, 29, h);
            String f = t.put(p, name, NOW);
            assertTrue(f.endsWith(name));
            t.putManifest(p, Manifest.of(1, List.of(name), List.of(), null), NOW);
            partitions.add(p);
        }
        for (int i = 0; i < 200; i++) {
            PartitionKey p = partitions.get(rnd.nextInt(partitions.size()));
            assertEquals(List.of(name), names(reader.snapshot(p).live()), "seed " + seed);
            assertTrue(reader.keptManifests() <= fits, "seed " + seed + ": " + reader.keptManifests() + " kept, "
                    + fits + " fit");
        }
        // A bound of 0 keeps nothing: every snapshot reads its manifest.
        TableReader none = new TableReader(counted, t.codec, 0);
        int before = reads.get();
        none.snapshot(partitions.get(0));
        none.snapshot(partitions.get(0));
        assertEquals(before + 2, reads.get());
    }
}
