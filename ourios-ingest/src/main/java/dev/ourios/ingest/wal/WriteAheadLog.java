package dev.ourios.ingest.wal;

import dev.ourios.core.Uuid7;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest write-ahead log: a directory of segment files that one writer thread appends to.
 *
 * <p><b>Group commit.</b> Requests hand their frames to the writer thread and wait on a future. The thread takes
 * everything queued, writes it, issues one {@code fsync}, and only then completes the futures of every frame the
 * fsync covered: many concurrent requests share one fsync, and no request is acknowledged before its bytes are
 * durable.
 *
 * <p><b>Sealing.</b> The open segment is sealed (fsynced, closed, handed to {@code onSealed}) once it holds
 * {@code sealBytes} or has been open {@code sealAfter}; the flusher turns a sealed segment into Parquet files and
 * then deletes it. On open, every segment left by an earlier process is recovered: a torn tail is truncated at its
 * first bad frame and the segment is handed to {@code onSealed} like a freshly sealed one.
 */
public final class WriteAheadLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WriteAheadLog.class);
    /** Frames waiting for the writer; the ingester's byte budget keeps it far from full. */
    private static final int QUEUE = 65_536;
    /** How often a failed log tries whether it can write again (a full disk that got space back). */
    static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Path dir;
    private final long sealBytes;
    private final long sealAfterNanos;
    private final Uuid7 ids;
    private final Consumer<SealedSegment> onSealed;
    private final WalListener listener;
    private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(QUEUE);
    private final AtomicLong pendingBytes = new AtomicLong();
    private final AtomicLong syncs = new AtomicLong();
    private final Thread writer;
    private volatile boolean stopping;
    private volatile IOException failed;
    private long failedAtNanos;
    private long nextSequence;
    private Open active;
    private FileChannel lockChannel;
    private java.nio.channels.FileLock lock;

    private record Pending(byte[] frame, CompletableFuture<Void> done) {
    }

    /** Wakes the writer when closing, so it need not wait out its poll. */
    private static final Pending WAKE = new Pending(new byte[0], new CompletableFuture<>());

    /** The segment being appended to; touched by the writer thread only. */
    private static final class Open {
        final Segment segment;
        final FileChannel channel;
        final long openedNanos;
        long size;
        /** Bytes made durable by the last successful fsync: what survives a failed write. */
        long syncedSize;

        Open(Segment segment, FileChannel channel, long openedNanos, long size) {
            this.segment = segment;
            this.channel = channel;
            this.openedNanos = openedNanos;
            this.size = size;
            this.syncedSize = size;
        }
    }

    private WriteAheadLog(Path dir, long sealBytes, Duration sealAfter, Uuid7 ids, Consumer<SealedSegment> onSealed,
            WalListener listener) {
        this.dir = dir;
        this.sealBytes = sealBytes;
        this.sealAfterNanos = sealAfter.toNanos();
        this.ids = ids;
        this.onSealed = onSealed;
        this.listener = listener;
        this.writer = new Thread(this::run, "ourios-wal");
        this.writer.setDaemon(true);
    }

    /**
     * Opens (creating) the WAL in {@code dir}, recovers what an earlier process left (each recovered segment goes
     * to {@code onSealed}, oldest first, before this returns) and starts the writer thread.
     */
    public static WriteAheadLog open(Path dir, long sealBytes, Duration sealAfter, Uuid7 ids,
            Consumer<SealedSegment> onSealed, WalListener listener) throws IOException {
        Files.createDirectories(dir);
        WriteAheadLog wal = new WriteAheadLog(dir, sealBytes, sealAfter, ids, onSealed, listener);
        wal.lock();
        wal.recover();
        wal.writer.start();
        return wal;
    }

    /**
     * One process per WAL directory: a second writer would interleave frames and flush segments it does not own.
     * The operating system drops the lock when the process dies, so a crash never leaves it stale.
     */
    private void lock() throws IOException {
        lockChannel = FileChannel.open(dir.resolve("wal.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            lock = lockChannel.tryLock();
        } catch (java.nio.channels.OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            lockChannel.close();
            throw new IOException("write-ahead log " + dir + " is in use by another process");
        }
    }

    private void recover() throws IOException {
        List<Segment> found = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.wal")) {
            for (Path p : ds) {
                Segment.parse(p).ifPresentOrElse(found::add,
                        () -> LOG.warn("ignoring {}: not a WAL segment name", p));
            }
        }
        found.sort((a, b) -> Long.compare(a.sequence(), b.sequence()));
        for (Segment s : found) {
            nextSequence = Math.max(nextSequence, s.sequence() + 1);
            WalFrames.Contents c = WalFrames.read(s.path());
            if (c.torn()) {
                LOG.warn("WAL segment {}: torn tail, truncating {} -> {} bytes ({} frames kept)", s.path(),
                        c.fileLength(), c.validLength(), c.entries().size());
                truncate(s.path(), c.validLength());
            }
            if (c.entries().isEmpty()) {
                Files.delete(s.path());
                continue;
            }
            pendingBytes.addAndGet(c.validLength());
            LOG.info("WAL segment {}: {} frames to replay", s.path().getFileName(), c.entries().size());
            onSealed.accept(new SealedSegment(s, c.validLength(), true));
        }
        fsyncDirectory(dir);
    }

    private static void truncate(Path p, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ch.truncate(length);
            ch.force(true);
        }
    }

    /**
     * Queues an entry; the future completes once the entry is durable (fsynced), or fails when it cannot be
     * (the log failed or is closed). Fails at once, without blocking, when the queue is full.
     */
    public CompletableFuture<Void> append(WalEntry entry) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (stopping) {
            done.completeExceptionally(new IllegalStateException("the write-ahead log is closed"));
        } else if (failed != null) {
            done.completeExceptionally(failed);
        } else if (!queue.offer(new Pending(WalFrames.encode(entry), done))) {
            done.completeExceptionally(new IllegalStateException("the write-ahead log queue is full"));
        } else if (!writer.isAlive()) {
            // Raced with close (or the writer died): nobody will write it, so fail it rather than leave it waiting.
            List<Pending> rest = new ArrayList<>();
            queue.drainTo(rest);
            rest.stream().filter(p -> p != WAKE).forEach(p -> p.done().completeExceptionally(
                    new IllegalStateException("the write-ahead log is closed")));
        }
        return done;
    }

    /** Bytes on disk in segments not yet flushed and deleted (the open one included). */
    public long pendingBytes() {
        return pendingBytes.get();
    }

    /** fsyncs of the open segment so far (group commits). */
    public long syncs() {
        return syncs.get();
    }

    /** The flusher has published a segment's records and deleted it. */
    public void released(SealedSegment s) {
        pendingBytes.addAndGet(-s.bytes());
    }

    /** Deletes a flushed segment durably. */
    public void delete(SealedSegment s) throws IOException {
        Files.deleteIfExists(s.segment().path());
        fsyncDirectory(dir);
    }

    public Path directory() {
        return dir;
    }

    private void run() {
        List<Pending> batch = new ArrayList<>();
        try {
            while (true) {
                if (failed != null && !stopping && System.nanoTime() - failedAtNanos >= RETRY_NANOS) {
                    retry();
                }
                Pending first = queue.poll(pollNanos(), TimeUnit.NANOSECONDS);
                if (first == null) {
                    if (active != null && age() >= sealAfterNanos) {
                        seal();
                    }
                    if (stopping && queue.isEmpty()) {
                        break;
                    }
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch);
                batch.removeIf(p -> p == WAKE);
                if (!batch.isEmpty()) {
                    writeBatch(batch);
                }
                batch.clear();
                if (stopping && queue.isEmpty()) {
                    break;
                }
                if (active != null && (active.size >= sealBytes || age() >= sealAfterNanos)) {
                    seal();
                }
            }
            if (active != null) {
                seal();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            failForGood(e);
        } catch (RuntimeException e) {
            failForGood(new IOException("write-ahead log writer failed: " + e, e));
        } finally {
            // Whatever is still queued can no longer be made durable.
            List<Pending> rest = new ArrayList<>();
            queue.drainTo(rest);
            IOException why = failed != null ? failed : new IOException("the write-ahead log is closed");
            rest.stream().filter(p -> p != WAKE).forEach(p -> p.done().completeExceptionally(why));
        }
    }

    private long pollNanos() {
        if (stopping) {
            return TimeUnit.MILLISECONDS.toNanos(10);
        }
        if (failed != null) {
            return Math.max(0, RETRY_NANOS - (System.nanoTime() - failedAtNanos));
        }
        return active == null ? sealAfterNanos : Math.max(0, sealAfterNanos - age());
    }

    private long age() {
        return System.nanoTime() - active.openedNanos;
    }

    private void writeBatch(List<Pending> batch) {
        if (failed != null) {
            batch.forEach(p -> p.done().completeExceptionally(failed));
            return;
        }
        long bytes = 0;
        long start = System.nanoTime();
        try {
            for (Pending p : batch) {
                if (active != null && active.size >= sealBytes) {
                    seal();
                }
                if (failed != null) {
                    throw failed;
                }
                if (active == null) {
                    openSegment();
                }
                writeFully(active.channel, p.frame());
                active.size += p.frame().length;
                pendingBytes.addAndGet(p.frame().length);
                bytes += p.frame().length;
            }
            active.channel.force(false);
            active.syncedSize = active.size;
            syncs.incrementAndGet();
        } catch (IOException | RuntimeException e) {
            IOException io = e instanceof IOException x ? x : new IOException(e);
            fail(io);
            batch.forEach(p -> p.done().completeExceptionally(io));
            abandonActive();
            return;
        }
        listener.synced(batch.size(), bytes, System.nanoTime() - start);
        batch.forEach(p -> p.done().complete(null));
    }

    private void openSegment() throws IOException {
        java.util.UUID id = ids.next();
        Segment s = new Segment(dir.resolve(Segment.name(nextSequence, id)), nextSequence, id);
        nextSequence++;
        FileChannel ch = FileChannel.open(s.path(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            writeFully(ch, WalFrames.MAGIC);
            ch.force(true);
        } catch (IOException | RuntimeException e) {
            // A disk full already at the header: leave no headless file behind.
            ch.close();
            Files.deleteIfExists(s.path());
            throw e;
        }
        fsyncDirectory(dir); // the new name must survive a crash as much as its frames
        active = new Open(s, ch, System.nanoTime(), WalFrames.MAGIC.length);
        pendingBytes.addAndGet(WalFrames.MAGIC.length);
    }

    private void seal() throws IOException {
        Open o = active;
        try {
            o.channel.force(true);
        } catch (IOException e) {
            fail(e);
            abandonActive();
            return;
        }
        active = null;
        try {
            o.channel.close();
        } catch (IOException e) {
            LOG.warn("could not close WAL segment {}: {}", o.segment.path(), e.toString());
        }
        onSealed.accept(new SealedSegment(o.segment, o.size, false));
    }

    /**
     * A write or fsync failed: the open segment's tail is unknown, so nothing more is appended to it (a later frame
     * behind a torn one would be lost on replay). It is cut back to what its last fsync made durable and sealed
     * (the flusher takes it as any other), and the log refuses appends until a retry ({@link #RETRY_NANOS} apart)
     * can open a fresh segment: once the disk has space again, appends resume without a restart.
     */
    private void fail(IOException e) {
        if (failed == null) {
            LOG.error("write-ahead log cannot be written; refusing appends, retrying every {} ms: {}",
                    TimeUnit.NANOSECONDS.toMillis(RETRY_NANOS), e.toString());
        }
        failed = e;
        failedAtNanos = System.nanoTime();
    }

    /** The writer thread itself failed: nothing retries any more. */
    private void failForGood(IOException e) {
        LOG.error("write-ahead log writer stopped: {}", e.toString());
        failed = e;
        failedAtNanos = System.nanoTime();
    }

    /** Cuts the open segment back to its durable prefix and seals it; frames after it were never acknowledged. */
    private void abandonActive() {
        Open o = active;
        if (o == null) {
            return;
        }
        active = null;
        pendingBytes.addAndGet(-(o.size - o.syncedSize));
        try {
            o.channel.truncate(o.syncedSize);
            o.channel.force(true);
        } catch (IOException | RuntimeException e) {
            // The unacknowledged tail stays: a replay reads whole frames only, so at worst it lands records whose
            // requests were answered 503 (and retried by their clients): a duplicate, never a loss.
            LOG.warn("could not cut WAL segment {} back to {} bytes: {}", o.segment.path(), o.syncedSize,
                    e.toString());
        }
        try {
            o.channel.close();
        } catch (IOException e) {
            LOG.warn("could not close WAL segment {}: {}", o.segment.path(), e.toString());
        }
        onSealed.accept(new SealedSegment(o.segment, o.syncedSize, false));
    }

    /** A failed log tries a fresh segment; success clears the failure. */
    private void retry() {
        try {
            if (active == null) {
                openSegment();
            }
            LOG.info("write-ahead log writable again; accepting appends");
            failed = null;
        } catch (IOException | RuntimeException e) {
            failedAtNanos = System.nanoTime();
        }
    }

    private static void writeFully(FileChannel ch, byte[] b) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(b);
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    static void fsyncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // Some file systems refuse to open directories for sync.
        }
    }

    /** Present while appends are refused (a write failed and no retry has succeeded yet). */
    public Optional<IOException> failure() {
        return Optional.ofNullable(failed);
    }

    /** Stops accepting, writes and fsyncs what is queued, seals the open segment and stops the writer. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        queue.offer(WAKE);
        writer.join(TimeUnit.MINUTES.toMillis(1));
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            LOG.warn("could not release the lock of {}: {}", dir, e.toString());
        }
    }
}
