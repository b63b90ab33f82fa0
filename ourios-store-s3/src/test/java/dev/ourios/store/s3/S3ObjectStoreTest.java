package dev.ourios.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.store.AtomicOutput;
import dev.ourios.store.IncompleteUpload;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.RandomAccessInput;
import dev.ourios.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.services.s3.S3Client;

/** S3-specific behaviour against s3proxy: request accounting, pagination and error messages. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3ObjectStoreTest {
    private static final String BUCKET = "specific";
    private static final String WRONG_SECRET = "wrong-secret-Zq81xK";

    private S3ProxyServer server;

    @BeforeAll
    void startServer() throws IOException {
        server = S3ProxyServer.start();
        server.createBucket(BUCKET);
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private S3ObjectStore store(String prefix) {
        return new S3ObjectStore(server.config(BUCKET, prefix));
    }

    @Test
    void rangedReadsGetRangesNotWholeObjects() throws IOException {
        byte[] data = new byte[1 << 20];
        new Random(1).nextBytes(data);
        try (S3ObjectStore store = store("counters-ranged")) {
            store.put("seg.parquet", data);
            RequestCounters.Snapshot before = store.counters().snapshot();
            try (RandomAccessInput in = store.openRandomAccess("seg.parquet")) {
                byte[] trailer = new byte[8];
                in.readFully(data.length - 8, trailer, 0, 8);
                byte[] footer = new byte[4096];
                in.readFully(data.length - 8 - 4096, footer, 0, footer.length);
                RequestCounters.Snapshot footerRead = store.counters().snapshot().minus(before);
                assertEquals(1, footerRead.heads(), "HEAD for the length");
                assertEquals(1, footerRead.gets(), "trailer and footer come from one tail GET");
                assertEquals(S3RandomAccessInput.WINDOW, footerRead.getBytes(), "only the tail window is fetched");

                byte[] chunk = new byte[256 << 10];
                in.readFully(300_000, chunk, 0, chunk.length);
                RequestCounters.Snapshot chunkRead = store.counters().snapshot().minus(before);
                assertEquals(2, chunkRead.gets());
                assertEquals(S3RandomAccessInput.WINDOW + chunk.length, chunkRead.getBytes());
            }
            try (InputStream in = store.openStream("seg.parquet")) {
                in.readAllBytes();
            }
            RequestCounters.Snapshot all = store.counters().snapshot().minus(before);
            assertEquals(3, all.gets());
            assertEquals(S3RandomAccessInput.WINDOW + (256 << 10) + data.length, all.getBytes());
            assertEquals(0, all.puts() + all.lists() + all.deletes());
        }
    }

    @Test
    void aSmallObjectIsFetchedWholeByItsFirstRead() throws IOException {
        byte[] data = new byte[S3RandomAccessInput.WHOLE_OBJECT];
        new Random(2).nextBytes(data);
        try (S3ObjectStore store = store("counters-small")) {
            store.put("small.parquet", data);
            RequestCounters.Snapshot before = store.counters().snapshot();
            try (RandomAccessInput in = store.openRandomAccess("small.parquet")) {
                byte[] trailer = new byte[8];
                in.readFully(data.length - 8, trailer, 0, 8);
                byte[] pages = new byte[100_000];
                in.readFully(4, pages, 0, pages.length);
                assertArrayEquals(Arrays.copyOfRange(data, data.length - 8, data.length), trailer);
                assertArrayEquals(Arrays.copyOfRange(data, 4, 100_004), pages);
            }
            RequestCounters.Snapshot read = store.counters().snapshot().minus(before);
            assertEquals(1, read.gets(), "the footer's read fetched the whole object; the pages came from it");
            assertEquals(data.length, read.getBytes());

            store.put("larger.parquet", Arrays.copyOf(data, data.length + 1));
            RequestCounters.Snapshot before2 = store.counters().snapshot();
            try (RandomAccessInput in = store.openRandomAccess("larger.parquet")) {
                in.readFully(0, new byte[8], 0, 8);
            }
            assertEquals(S3RandomAccessInput.WINDOW, store.counters().snapshot().minus(before2).getBytes(),
                    "one byte past the bound: a window, not the object");
        }
    }

    @Test
    void aListedObjectOpensWithoutAHeadAndItsGetsArePinnedToTheListedETag() throws IOException {
        byte[] first = new byte[1000];
        new Random(3).nextBytes(first);
        try (S3ObjectStore store = store("listed"); S3ObjectStore other = store("listed")) {
            store.put("p/a.parquet", first);
            store.put("p/b.parquet", first);
            store.listObjects("p/");
            RequestCounters.Snapshot before = store.counters().snapshot();
            try (RandomAccessInput in = store.openRandomAccess("p/a.parquet")) {
                byte[] got = new byte[first.length];
                in.readFully(0, got, 0, got.length);
                assertArrayEquals(first, got);
            }
            RequestCounters.Snapshot read = store.counters().snapshot().minus(before);
            assertEquals(0, read.heads(), "the listing gave the length and the ETag");
            assertEquals(1, read.gets());

            // Replaced or deleted since the listing (by another process): the first read fails as a HEAD would
            // have failed the open, and what the listing said is forgotten.
            other.put("p/a.parquet", new byte[] {1, 2, 3});
            other.delete("p/b.parquet");
            try (RandomAccessInput in = store.openRandomAccess("p/a.parquet")) {
                NoSuchObjectException e = assertThrows(NoSuchObjectException.class,
                        () -> in.readFully(0, new byte[3], 0, 3));
                assertTrue(e.getMessage().contains("replaced"), e.getMessage());
            }
            try (RandomAccessInput in = store.openRandomAccess("p/b.parquet")) {
                assertThrows(NoSuchObjectException.class, () -> in.readFully(0, new byte[3], 0, 3));
            }
            try (RandomAccessInput in = store.openRandomAccess("p/a.parquet")) {
                assertEquals(3, in.length(), "opened by a HEAD again");
            }
            assertThrows(NoSuchObjectException.class, () -> store.openRandomAccess("p/b.parquet"));
        }
    }

    @Test
    void aTreeListingFollowsContinuationTokens() throws IOException {
        try (S3ObjectStore store = new S3ObjectStore(server.config(BUCKET, "paged-tree"), 4)) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                keys.add(String.format("day/hour=%02d/f", i));
                store.put(keys.get(i), new byte[1]);
            }
            long listsBefore = store.counters().snapshot().lists();
            assertEquals(keys, store.listTree("day/").stream().map(ObjectInfo::key).toList());
            assertEquals(3, store.counters().snapshot().lists() - listsBefore, "9 keys in pages of 4");
        }
    }

    @Test
    void countsListsPutsAndDeletes() throws IOException {
        try (S3ObjectStore store = store("counters-ops")) {
            store.put("a/x", new byte[10]);
            store.putIfAbsent("a/y", new byte[10]);
            store.putIfAbsent("a/y", new byte[10]);
            store.listObjects("a/");
            store.listDirectories("");
            store.delete("a/x");
            store.delete("a/never");
            assertEquals(new RequestCounters.Snapshot(2, 0, 0, 3, 2, 0), store.counters().snapshot());
        }
    }

    @Test
    void largeWritesAreMultipartAndAbortCleansUp() throws IOException {
        try (S3ObjectStore store = store("counters-multipart")) {
            byte[] part = new byte[S3Config.DEFAULT_PART_SIZE];
            try (AtomicOutput out = store.create("big")) {
                out.write(part);
                out.write(part);
                out.write(new byte[1000]);
                out.commit();
            }
            // CreateMultipartUpload + 3 parts + CompleteMultipartUpload
            assertEquals(5, store.counters().snapshot().puts());
            assertEquals(2L * part.length + 1000, store.stat("big").orElseThrow().size());

            try (AtomicOutput out = store.create("aborted")) {
                out.write(part);
                out.write(1);
            }
            RequestCounters.Snapshot s = store.counters().snapshot();
            assertEquals(7, s.puts(), "create + 1 part for the aborted upload");
            assertEquals(1, s.deletes(), "AbortMultipartUpload");

            try (AtomicOutput out = store.create("exactly-one-part")) {
                out.write(part); // a full buffer with nothing after it is still a single PUT
                out.commit();
            }
            assertEquals(8, store.counters().snapshot().puts());
        }
    }

    /**
     * Uploads begun and never completed (a writer SIGKILLed between parts) are listed under a prefix, at any depth,
     * in pages of two, and aborted; aborting one already gone succeeds.
     */
    @Test
    void incompleteUploadsAreListedAndAborted() throws IOException {
        S3Config config = server.config(BUCKET, "uploads");
        try (S3Client raw = S3ClientFactory.create(config, new RequestCounters());
                S3ObjectStore store = new S3ObjectStore(config, 2)) {
            List<String> begun = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                String key = String.format("d/hour=%02d/f.parquet", i);
                String id = raw.createMultipartUpload(b -> b.bucket(BUCKET).key(config.keyPrefix() + key)).uploadId();
                begun.add(key + "#" + id);
            }
            raw.createMultipartUpload(b -> b.bucket(BUCKET).key(config.keyPrefix() + "elsewhere/f.parquet"));
            Instant listedAt = Instant.now();
            List<IncompleteUpload> listed = store.incompleteUploads("d/");
            assertEquals(begun, listed.stream().map(u -> u.key() + "#" + u.uploadId()).toList());
            assertTrue(listed.stream().noneMatch(u -> u.initiated().isAfter(listedAt.plusSeconds(5))),
                    listed.toString());
            for (IncompleteUpload u : listed) {
                store.abortUpload(u);
            }
            store.abortUpload(listed.get(0));
            assertEquals(List.of(), store.incompleteUploads("d/"));
            assertEquals(1, store.incompleteUploads("elsewhere/").size(), "other prefixes are left alone");
        }
    }

    @Test
    void listingsFollowContinuationTokens() throws IOException {
        // Pages of 4 keys: objects and common prefixes share the page budget, so both kinds cross pages.
        try (S3ObjectStore store = new S3ObjectStore(server.config(BUCKET, "paged"), 4)) {
            List<String> objects = new ArrayList<>();
            List<String> dirs = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                objects.add(String.format("p/f-%02d", i));
                dirs.add(String.format("d-%02d", i));
                store.put(objects.get(i), new byte[1]);
                store.put("p/" + dirs.get(i) + "/x", new byte[1]);
            }
            long listsBefore = store.counters().snapshot().lists();
            assertEquals(objects, store.listObjects("p/").stream().map(ObjectInfo::key).toList());
            assertEquals(dirs, store.listDirectories("p/"));
            assertEquals(10, store.counters().snapshot().lists() - listsBefore, "18 entries in pages of 4, twice");
        }
    }

    @Test
    void missingBucketIsOneClearLine() {
        String expected = "bucket 'no-such-bucket' does not exist at " + server.endpoint();
        S3Config config = server.config("no-such-bucket", "p");
        try (S3ObjectStore store = new S3ObjectStore(config)) {
            assertMessage(expected, () -> store.listObjects(""));
            assertMessage(expected, () -> store.openStream("k"));
            assertMessage(expected, () -> store.putIfAbsent("k", new byte[1]));
        }
        try (S3ObjectStore store = new S3ObjectStore(config)) {
            assertMessage(expected, () -> store.stat("k")); // HEAD has no error body: the store asks about the bucket
        }
    }

    @Test
    void wrongCredentialsAreOneLineWithoutTheSecret() {
        S3Config config = server.config(BUCKET, "p").withCredentials(new S3Credentials("test", WRONG_SECRET));
        assertFalse(config.toString().contains(WRONG_SECRET), config.toString());
        try (S3ObjectStore store = new S3ObjectStore(config)) {
            for (Executable op : List.<Executable>of(() -> store.listObjects("d/"), () -> store.stat("k"),
                    () -> store.put("k", new byte[1]), () -> store.openStream("k"))) {
                StoreException e = assertThrows(StoreException.class, op);
                assertTrue(e.getMessage().startsWith("access denied to s3://" + BUCKET + "/p/"), e.getMessage());
                assertTrue(e.getMessage().contains("(check credentials)"), e.getMessage());
                assertOneLineWithoutSecret(e);
            }
        }
    }

    @Test
    void deadEndpointIsOneClearLine() throws IOException {
        URI dead;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            dead = URI.create("http://127.0.0.1:" + s.getLocalPort());
        }
        S3Config config = S3Config.of(BUCKET, "p").withEndpoint(dead)
                .withCredentials(new S3Credentials("test", WRONG_SECRET)).withMaxAttempts(2);
        try (S3ObjectStore store = new S3ObjectStore(config)) {
            StoreException e = assertThrows(StoreException.class, () -> store.listObjects(""));
            assertTrue(e.getMessage().startsWith("cannot reach S3 endpoint " + dead + " "), e.getMessage());
            assertOneLineWithoutSecret(e);
            assertEquals(2, store.counters().snapshot().lists(), "connection errors are retried");
        }
    }

    @Test
    void checkBucketRefusesAMissingBucketByName() throws IOException {
        try (S3ObjectStore store = new S3ObjectStore(server.config("no-such-bucket", "p"))) {
            NoSuchBucketException e = assertThrows(NoSuchBucketException.class, store::checkBucket);
            assertTrue(e.getMessage().startsWith("bucket 'no-such-bucket' does not exist at "), e.getMessage());
        }
        try (S3ObjectStore store = store("exists")) {
            store.checkBucket();
        }
    }

    @Test
    void describeAndToStringNameTheLocation() {
        try (S3ObjectStore store = store("tables/")) {
            assertEquals("s3://" + BUCKET + "/tables/t/x.parquet", store.describe("t/x.parquet"));
            assertTrue(store.toString().contains(server.endpoint().toString()));
        }
    }

    private static void assertMessage(String expected, Executable op) {
        StoreException e = assertThrows(StoreException.class, op);
        assertEquals(expected, e.getMessage());
        assertOneLineWithoutSecret(e);
    }

    private static void assertOneLineWithoutSecret(Throwable e) {
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        for (Throwable t = e; t != null; t = t.getCause()) {
            assertFalse(String.valueOf(t.getMessage()).contains(WRONG_SECRET), t.toString());
            assertFalse(String.valueOf(t.getMessage()).contains(S3ProxyServer.CREDENTIAL), t.toString());
        }
    }
}
