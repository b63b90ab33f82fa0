package dev.ourios.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The S3-equivalent model a counting view applies to a store that sends no requests (local disk). */
class CountingObjectStoreTest {
    @TempDir
    Path dir;

    @Test
    void local_calls_are_counted_as_the_s3_requests_they_would_be() throws Exception {
        LocalObjectStore local = new LocalObjectStore(dir);
        CountingObjectStore store = new CountingObjectStore(local);
        assertFalse(store.measured());
        byte[] data = "0123456789".getBytes(StandardCharsets.US_ASCII);

        store.put("d/a", data);                         // 1 PUT
        store.putIfAbsent("d/b", data);                 // 1 PUT
        store.putIfAbsent("d/b", data);                 // 1 PUT (lost: still a request)
        store.listObjects("d/");                        // 1 LIST
        store.listDirectories("");                      // 1 LIST
        store.stat("d/missing");                        // 1 HEAD
        try (RandomAccessInput in = store.openRandomAccess("d/a")) { // 1 HEAD
            in.readFully(6, new byte[4], 0, 4);         // 1 GET, 4 bytes
            in.readFully(0, new byte[2], 0, 2);         // 1 GET, 2 bytes
        }
        try (InputStream in = store.openStream("d/b")) { // 1 GET
            assertEquals(10, in.readAllBytes().length);  // 10 bytes
        }
        try (AtomicOutput out = store.create("d/c")) {
            out.write(data);
        }                                               // aborted: nothing published, no PUT
        store.delete("d/a");                            // 1 DELETE
        store.delete("d/never");                        // 1 DELETE

        assertEquals(new StoreRequests(2, 2, 3, 16, 3, 2), store.requests());
        assertEquals(12, store.requests().total());
        assertFalse(local.stat("d/c").isPresent());
    }

    @Test
    void a_tree_listing_is_one_list_a_page_of_a_thousand_keys() throws Exception {
        LocalObjectStore local = new LocalObjectStore(dir);
        for (int h = 0; h < 3; h++) { // written beside the store, without its fsyncs: only the listing matters
            Path hour = java.nio.file.Files.createDirectories(dir.resolve("t/hour=0" + h));
            for (int i = 0; i < 500; i++) {
                java.nio.file.Files.write(hour.resolve("f" + i), new byte[] {1});
            }
        }
        CountingObjectStore store = new CountingObjectStore(local);
        assertEquals(1500, store.listTree("t/").size());
        assertEquals(new StoreRequests(2, 0, 0, 0, 0, 0), store.requests());
        store.listTree("t/absent/");
        assertEquals(3, store.requests().list(), "an empty listing is still a request");
    }
}
