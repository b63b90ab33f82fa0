package dev.ourios.ingest.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.Uuid7;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The write-ahead log on a real directory: framing, group commit, sealing, and recovery of a torn tail. */
class WriteAheadLogTest {
    @TempDir
    Path dir;

    private final List<SealedSegment> sealed = new CopyOnWriteArrayList<>();

    private WriteAheadLog open(long sealBytes, Duration sealAfter) throws IOException {
        return WriteAheadLog.open(dir, sealBytes, sealAfter, Uuid7.system(), sealed::add, WalListener.NONE);
    }

    private static WalEntry entry(int i) {
        return new WalEntry("tenant-" + (i % 3), ("payload " + i).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void many_concurrent_appends_share_fsyncs_and_every_acknowledged_frame_is_on_disk() throws Exception {
        int requests = 400;
        WriteAheadLog wal = open(1L << 30, Duration.ofHours(1));
        ExecutorService clients = Executors.newFixedThreadPool(32);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                int n = i;
                done.add(clients.submit(() -> wal.append(entry(n)).get(30, TimeUnit.SECONDS)));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        long syncs = wal.syncs();
        wal.close();
        assertTrue(syncs < requests, "group commit: " + syncs + " fsyncs for " + requests + " requests");
        assertEquals(1, sealed.size(), "closing seals the open segment");
        WalFrames.Contents c = WalFrames.read(sealed.get(0).segment().path());
        assertEquals(requests, c.entries().size());
        assertEquals(sealed.get(0).bytes(), c.validLength());
    }

    @Test
    void a_segment_is_sealed_at_its_size_and_the_next_one_continues() throws Exception {
        WriteAheadLog wal = open(200, Duration.ofHours(1));
        for (int i = 0; i < 20; i++) {
            wal.append(entry(i)).get(30, TimeUnit.SECONDS);
        }
        wal.close();
        assertTrue(sealed.size() > 1, "sealed " + sealed.size());
        int frames = 0;
        for (SealedSegment s : sealed) {
            frames += WalFrames.read(s.segment().path()).entries().size();
        }
        assertEquals(20, frames);
    }

    @Test
    void a_torn_tail_is_truncated_at_the_first_bad_frame_and_the_rest_replays() throws Exception {
        WriteAheadLog wal = open(1L << 30, Duration.ofHours(1));
        for (int i = 0; i < 10; i++) {
            wal.append(entry(i)).get(30, TimeUnit.SECONDS);
        }
        // What a crash mid-append leaves: the acknowledged frames, then part of one more. (Closing first only
        // releases the directory lock this JVM holds; the frames on disk are the same.)
        wal.close();
        Path seg;
        try (Stream<Path> s = Files.list(dir)) {
            seg = s.filter(p -> p.toString().endsWith(".wal")).findFirst().orElseThrow();
        }
        long good = Files.size(seg);
        byte[] next = WalFrames.encode(entry(10));
        try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.wrap(next, 0, next.length - 3));
        }
        sealed.clear();
        WriteAheadLog replayed = open(1L << 30, Duration.ofHours(1));
        assertEquals(1, sealed.size());
        assertEquals(good, Files.size(seg), "truncated to the last whole frame");
        WalFrames.Contents c = WalFrames.read(seg);
        assertEquals(10, c.entries().size());
        assertArrayEquals(entry(9).payload(), c.entries().get(9).payload());
        assertEquals("tenant-0", c.entries().get(9).tenant());
        // The recovered log goes on appending to a new segment.
        replayed.append(entry(11)).get(30, TimeUnit.SECONDS);
        replayed.close();
    }

    @Test
    void a_corrupted_frame_ends_the_valid_prefix() throws Exception {
        WriteAheadLog wal = open(1L << 30, Duration.ofHours(1));
        for (int i = 0; i < 5; i++) {
            wal.append(entry(i)).get(30, TimeUnit.SECONDS);
        }
        wal.close();
        Path seg = sealed.get(0).segment().path();
        byte[] bytes = Files.readAllBytes(seg);
        int third = WalFrames.MAGIC.length + 2 * WalFrames.encode(entry(0)).length;
        bytes[third + WalFrames.HEADER + 3] ^= 0x40; // flip a bit inside the third frame's body
        Files.write(seg, bytes);
        WalFrames.Contents c = WalFrames.read(seg);
        assertEquals(2, c.entries().size());
        assertTrue(c.torn());
    }

    @Test
    void a_second_writer_of_the_same_directory_is_refused() throws Exception {
        WriteAheadLog wal = open(1L << 30, Duration.ofHours(1));
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> open(1L << 30, Duration.ofHours(1)));
        assertTrue(e.getMessage().contains("in use by another process"), e.getMessage());
        wal.close();
        open(1L << 30, Duration.ofHours(1)).close(); // released on close
    }

    @Test
    void appends_after_close_fail_instead_of_hanging() throws Exception {
        WriteAheadLog wal = open(1L << 30, Duration.ofHours(1));
        wal.close();
        CompletableFuture<Void> f = wal.append(entry(1));
        assertTrue(f.isCompletedExceptionally());
    }
}
