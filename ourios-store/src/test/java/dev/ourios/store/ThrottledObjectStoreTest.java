package dev.ourios.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a throttled view charges, on a frozen clock ({@link ThrottledObjectStoreContractTest}: the contract). */
class ThrottledObjectStoreTest {
    @TempDir
    Path dir;

    /**
     * A bucket of 1 byte at 10^9 B/s on a clock that never moves: every charge becomes debt, so the last wait in
     * nanoseconds is the bytes charged so far minus the one-byte burst.
     */
    private static final class Tally {
        final List<Long> sleeps = new ArrayList<>();
        final RateLimiter limiter = new RateLimiter(1_000_000_000L, 1, () -> 0L, sleeps::add);

        long charged() {
            return sleeps.isEmpty() ? 0 : sleeps.get(sleeps.size() - 1) + 1;
        }
    }

    @Test
    void reads_are_charged_by_bytes_returned_and_writes_by_bytes_written() throws Exception {
        Tally reads = new Tally();
        Tally writes = new Tally();
        ObjectStore store = new IoThrottle(Optional.of(reads.limiter), Optional.of(writes.limiter))
                .view(new LocalObjectStore(dir));

        byte[] content = "0123456789".repeat(100).getBytes(StandardCharsets.UTF_8);
        store.put("t/a", content);
        assertEquals(1000, writes.charged());
        assertEquals(true, store.putIfAbsent("t/b", content));
        assertEquals(2000, writes.charged());

        store.listObjects("t/");
        store.stat("t/a");
        store.delete("t/b");
        assertEquals(0, reads.charged(), "listings, stats and deletes move no object bytes");

        try (RandomAccessInput in = store.openRandomAccess("t/a")) {
            in.readFully(10, new byte[100], 0, 100);
        }
        assertEquals(100, reads.charged());
        try (InputStream in = store.openStream("t/a")) {
            in.read();
            in.read(new byte[50]);
        }
        assertEquals(151, reads.charged(), "a stream is charged what it returned, not the object's size");
        store.readAllBytes("t/a");
        assertEquals(1151, reads.charged());
        assertEquals(2000, writes.charged(), "reads never charge the write bucket");
    }

    @Test
    void nothing_throttled_is_the_store_itself() {
        ObjectStore store = new LocalObjectStore(dir);
        assertSame(store, IoThrottle.of(IoRates.UNLIMITED).view(store));
    }
}
