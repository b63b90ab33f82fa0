package dev.ourios.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link ObjectStore} must have, run against each implementation by a subclass. The table
 * layer relies on exactly these properties: segment-wise sorted listings, ranged reads, atomic publish and
 * create-only commits.
 */
public abstract class ObjectStoreContractTest {
    /** Larger than any buffering threshold an implementation is expected to use (S3 buffers 8 MiB). */
    protected static final int LARGE_OBJECT_BYTES = 20 * 1024 * 1024 + 123;

    private ObjectStore store;

    /** A new, empty store; each test gets its own and closes it. */
    protected abstract ObjectStore newStore() throws Exception;

    @BeforeEach
    void openStore() throws Exception {
        store = newStore();
    }

    @AfterEach
    void closeStore() throws Exception {
        store.close();
    }

    protected ObjectStore store() {
        return store;
    }

    @Test
    void listingsAreSortedOneLevelAndSegmentWise() throws IOException {
        put("t/tenant_id=ab/x.parquet", "ab");
        put("t/tenant_id=a/z.parquet", "z");
        put("t/tenant_id=a/b.parquet", "bb");
        put("t/tenant_id=a/sub/c.parquet", "c");
        put("t/top.json", "{}");
        put("t/tenant_id=a0", "not a directory");

        assertEquals(List.of("t"), store.listDirectories(""));
        assertEquals(List.of("tenant_id=a", "tenant_id=ab"), store.listDirectories("t/"));
        assertEquals(List.of("t/tenant_id=a0", "t/top.json"), keys(store.listObjects("t/")));
        assertEquals(List.of("t/tenant_id=a/b.parquet", "t/tenant_id=a/z.parquet"),
                keys(store.listObjects("t/tenant_id=a/")), "tenant_id=a/ must not match tenant_id=ab/ or sub/");
        assertEquals(List.of("sub"), store.listDirectories("t/tenant_id=a/"));
        assertEquals(List.of("t/tenant_id=ab/x.parquet"), keys(store.listObjects("t/tenant_id=ab/")));

        ObjectInfo b = store.listObjects("t/tenant_id=a/").get(0);
        assertEquals("b.parquet", b.name());
        assertEquals(2, b.size());
        assertNotNull(b.lastModified());
    }

    @Test
    void aTreeListingHoldsEveryObjectBelowThePrefixSortedAndSegmentWise() throws IOException {
        store.put("r/day=01/rollup/m.json", new byte[] {1});
        store.put("r/day=01/hour=00/a.parquet", new byte[] {1, 2});
        store.put("r/day=01/hour=00/deeper/z.parquet", new byte[] {3});
        store.put("r/day=01/hour=23/b.parquet", new byte[] {4});
        store.put("r/day=01/top.json", new byte[] {5});
        store.put("r/day=011/x.parquet", new byte[] {6});
        assertEquals(List.of("r/day=01/hour=00/a.parquet", "r/day=01/hour=00/deeper/z.parquet",
                "r/day=01/hour=23/b.parquet", "r/day=01/rollup/m.json", "r/day=01/top.json"),
                keys(store.listTree("r/day=01/")), "day=01/ must not match day=011/");
        assertEquals(2, store.listTree("r/day=01/hour=00/").get(0).size());
        assertEquals(6, store.listTree("r/").size());
        assertEquals(List.of(), store.listTree("r/day=02/"));
        assertThrows(StoreException.class, () -> store.listTree("r/day=01"));
    }

    @Test
    void listingsSortManyKeys() throws IOException {
        List<String> expected = new ArrayList<>();
        Random r = new Random(42);
        for (int i = 0; i < 40; i++) {
            String name = "f-" + Integer.toString(r.nextInt(1_000_000), 36);
            if (!expected.contains("d/" + name)) {
                expected.add("d/" + name);
                put("d/" + name, name);
            }
        }
        expected.sort(null);
        assertEquals(expected, keys(store.listObjects("d/")));
    }

    @Test
    void listingAnAbsentPrefixIsEmpty() throws IOException {
        assertEquals(List.of(), store.listDirectories("nothing/here/"));
        assertEquals(List.of(), store.listObjects("nothing/here/"));
        assertEquals(List.of(), store.listObjects(""));
        assertEquals(List.of(), store.listDirectories(""));
    }

    @Test
    void listingPrefixMustEndInSlash() {
        assertThrows(StoreException.class, () -> store.listObjects("t/tenant_id=a"));
        assertThrows(StoreException.class, () -> store.listDirectories("t"));
    }

    @Test
    void rangedReadsReturnExactBytes() throws IOException {
        byte[] data = randomBytes(200_000, 7);
        store.put("p/data.bin", data);
        try (RandomAccessInput in = store.openRandomAccess("p/data.bin")) {
            assertEquals(data.length, in.length());
            // footer-style: the 8-byte trailer, then the footer just before it
            assertRange(in, data, data.length - 8, 8);
            assertRange(in, data, data.length - 8 - 5_000, 5_000);
            // middle ranges, small and larger than any read-ahead, and the first and last byte
            assertRange(in, data, 70_001, 17);
            assertRange(in, data, 10_000, 150_000);
            assertRange(in, data, 0, 1);
            assertRange(in, data, data.length - 1, 1);
            assertRange(in, data, 0, data.length);

            byte[] into = new byte[20];
            in.readFully(100, into, 5, 10);
            assertArrayEquals(Arrays.copyOfRange(data, 100, 110), Arrays.copyOfRange(into, 5, 15));

            assertThrows(EOFException.class, () -> in.readFully(data.length - 4, new byte[8], 0, 8));
            assertThrows(EOFException.class, () -> in.readFully(data.length + 10, new byte[1], 0, 1));
            in.readFully(data.length, new byte[0], 0, 0);
        }
    }

    @Test
    void openingAnAbsentObjectFails() {
        assertThrows(NoSuchObjectException.class, () -> store.openRandomAccess("p/missing.bin"));
        assertThrows(NoSuchObjectException.class, () -> store.openStream("p/missing.bin"));
    }

    @Test
    void streamedWriteIsInvisibleUntilCommit() throws IOException {
        byte[] data = randomBytes(100_000, 3);
        try (AtomicOutput out = store.create("w/seg-1.parquet")) {
            out.write(data, 0, 50_000);
            out.write(data[50_000]);
            out.write(data, 50_001, data.length - 50_001);
            assertEquals(data.length, out.position());
            assertEquals(Optional.empty(), store.stat("w/seg-1.parquet"));
            // Only the final key is checked: the local store's in-flight temp sibling (.seg-1.parquet.tmp-…) is
            // listed on purpose so GC can find abandoned ones; readers never match that name.
            assertFalse(keys(store.listObjects("w/")).contains("w/seg-1.parquet"));
            out.commit();
        }
        assertArrayEquals(data, store.readAllBytes("w/seg-1.parquet"));
        assertTrue(keys(store.listObjects("w/")).contains("w/seg-1.parquet"));
    }

    @Test
    void abortAndCloseWithoutCommitLeaveNothing() throws IOException {
        AtomicOutput aborted = store.create("w/aborted");
        aborted.write(randomBytes(10_000, 1));
        aborted.abort();
        aborted.abort(); // idempotent
        try (AtomicOutput closed = store.create("w/closed")) {
            closed.write(randomBytes(10_000, 2));
        }
        assertEquals(Optional.empty(), store.stat("w/aborted"));
        assertEquals(Optional.empty(), store.stat("w/closed"));
        assertEquals(List.of(), store.listObjects("w/"));
    }

    @Test
    void largeStreamedObjectRoundTrips() throws IOException {
        byte[] data = randomBytes(LARGE_OBJECT_BYTES, 11);
        try (AtomicOutput out = store.create("big/object.bin")) {
            int off = 0;
            int chunk = 1;
            while (off < data.length) { // odd, growing chunk sizes cross buffer boundaries at arbitrary points
                int n = Math.min(chunk, data.length - off);
                out.write(data, off, n);
                off += n;
                chunk = chunk * 3 + 7;
            }
            assertEquals(Optional.empty(), store.stat("big/object.bin"));
            out.commit();
        }
        assertEquals(data.length, store.stat("big/object.bin").orElseThrow().size());
        try (InputStream in = store.openStream("big/object.bin")) {
            assertArrayEquals(sha256(data), sha256(in.readAllBytes()));
        }
        try (RandomAccessInput in = store.openRandomAccess("big/object.bin")) {
            assertRange(in, data, 8 * 1024 * 1024 - 100, 200); // across an 8 MiB part boundary
            assertRange(in, data, data.length - 8, 8);
        }
    }

    @Test
    void abortingALargeStreamedObjectLeavesNothing() throws IOException {
        try (AtomicOutput out = store.create("big/aborted.bin")) {
            out.write(randomBytes(12 * 1024 * 1024, 5));
        }
        assertEquals(Optional.empty(), store.stat("big/aborted.bin"));
        assertEquals(List.of(), store.listObjects("big/"));
    }

    @Test
    void createReplacesOnCommit() throws IOException {
        put("r/key", "old");
        try (AtomicOutput out = store.create("r/key")) {
            out.write("new content".getBytes(StandardCharsets.UTF_8));
            assertEquals("old", read("r/key"));
            out.commit();
        }
        assertEquals("new content", read("r/key"));
    }

    @Test
    void putIfAbsentCreatesOnlyOnce() throws IOException {
        assertTrue(store.putIfAbsent("m/manifest-00000001.json", bytes("first")));
        assertFalse(store.putIfAbsent("m/manifest-00000001.json", bytes("second")));
        assertEquals("first", read("m/manifest-00000001.json"));
        assertEquals(5, store.stat("m/manifest-00000001.json").orElseThrow().size());
    }

    @Test
    void racingPutIfAbsentHasExactlyOneWinner() throws Exception {
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 3; round++) {
                String key = "race/manifest-" + round + ".json";
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Boolean>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    byte[] content = bytes("writer-" + t);
                    results.add(pool.submit(() -> {
                        go.await();
                        return store.putIfAbsent(key, content);
                    }));
                }
                go.countDown();
                List<Integer> winners = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    if (results.get(t).get(60, TimeUnit.SECONDS)) {
                        winners.add(t);
                    }
                }
                assertEquals(1, winners.size(), "round " + round + " winners: " + winners);
                assertEquals("writer-" + winners.get(0), read(key));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void deleteIsIdempotent() throws IOException {
        store.delete("d/never-existed");
        put("d/x", "x");
        store.delete("d/x");
        assertEquals(Optional.empty(), store.stat("d/x"));
        assertEquals(List.of(), store.listObjects("d/"));
        store.delete("d/x");
        assertThrows(NoSuchObjectException.class, () -> store.openStream("d/x"));
    }

    @Test
    void statReportsSizes() throws IOException {
        store.put("s/empty", new byte[0]);
        put("s/five", "12345");
        assertEquals(0, store.stat("s/empty").orElseThrow().size());
        assertEquals(0, store.readAllBytes("s/empty").length);
        ObjectInfo five = store.stat("s/five").orElseThrow();
        assertEquals("s/five", five.key());
        assertEquals(5, five.size());
        assertNotNull(five.lastModified());
        assertEquals(Optional.empty(), store.stat("s/absent"));
        assertEquals(List.of(0L, 5L), store.listObjects("s/").stream().map(ObjectInfo::size).toList());
    }

    @Test
    void keysThatEscapeTheRootAreRejected() {
        assertThrows(StoreException.class, () -> store.put("../outside", bytes("x")));
        assertThrows(StoreException.class, () -> store.stat("a/../../outside"));
    }

    @Test
    void describeNamesTheKey() {
        assertTrue(store.describe("t/x.parquet").endsWith("t/x.parquet"), store.describe("t/x.parquet"));
    }

    // --- helpers ---

    protected void put(String key, String content) throws IOException {
        store.put(key, bytes(content));
    }

    protected String read(String key) throws IOException {
        return new String(store.readAllBytes(key), StandardCharsets.UTF_8);
    }

    protected static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    protected static List<String> keys(List<ObjectInfo> infos) {
        return infos.stream().map(ObjectInfo::key).toList();
    }

    protected static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    protected static void assertRange(RandomAccessInput in, byte[] data, long position, int len) throws IOException {
        byte[] got = new byte[len];
        in.readFully(position, got, 0, len);
        assertArrayEquals(Arrays.copyOfRange(data, (int) position, (int) position + len), got,
                "bytes [" + position + ", " + (position + len) + ")");
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
