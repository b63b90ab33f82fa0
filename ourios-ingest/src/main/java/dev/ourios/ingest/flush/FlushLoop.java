package dev.ourios.ingest.flush;

import dev.ourios.ingest.wal.SealedSegment;
import dev.ourios.ingest.quarantine.SegmentQuarantine;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flusher thread: takes sealed segments in order, flushes each, then hands it to {@code onFlushed} (which
 * deletes it). A failure (the store is down) keeps the segment and retries it with a growing pause, so segments
 * pile up in the WAL, whose size bound then turns new requests away with 503 until the store is back.
 *
 * <p>A failure a retry will not fix ({@link FlushFailures#permanent}) is not retried: the segment goes whole to
 * {@code onPoison} (the quarantine), which is logged once, and the loop carries on with the next segment, so one
 * poison segment never holds back the others. Should the quarantine itself fail, the segment is retried as above.
 *
 * <p>The queue holds segment descriptors only (a few per flush interval); their bytes are on disk and bounded by
 * the WAL size limit.
 */
public final class FlushLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FlushLoop.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final SegmentFlusher flusher;
    private final Consumer<SealedSegment> onFlushed;
    private final Quarantiner onPoison;
    private final StoreGuard guard;
    private final FlushListener listener;
    private final LinkedBlockingQueue<SealedSegment> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean stopping;
    private volatile long drainDeadline = Long.MAX_VALUE;
    /** Why the last flush attempt failed, while its segment waits for a retry; null once a flush succeeds. */
    private volatile String blockedBy;

    /** Moves a segment that can never be flushed out of the way; it must not lose it. */
    @FunctionalInterface
    public interface Quarantiner {
        void quarantine(SealedSegment segment, Throwable why) throws IOException;
    }

    public FlushLoop(SegmentFlusher flusher, Consumer<SealedSegment> onFlushed, FlushListener listener) {
        this(flusher, onFlushed, (s, why) -> {
            throw new IOException("no quarantine for " + s.segment().path(), why);
        }, listener);
    }

    /** Checked before every flush attempt: throws (a failure to retry) when the store must not be written now. */
    @FunctionalInterface
    public interface StoreGuard {
        void check() throws IOException;

        StoreGuard NONE = () -> { };
    }

    public FlushLoop(SegmentFlusher flusher, Consumer<SealedSegment> onFlushed, Quarantiner onPoison,
            FlushListener listener) {
        this(flusher, onFlushed, onPoison, StoreGuard.NONE, listener);
    }

    /**
     * @param guard checked before each flush attempt; when it throws, nothing of the segment is written and the
     *              segment is retried like any failed flush (the store's marker is gone: an unmounted volume)
     */
    public FlushLoop(SegmentFlusher flusher, Consumer<SealedSegment> onFlushed, Quarantiner onPoison,
            StoreGuard guard, FlushListener listener) {
        this.guard = guard;
        this.onPoison = onPoison;
        this.flusher = flusher;
        this.onFlushed = onFlushed;
        this.listener = listener;
        this.thread = new Thread(this::run, "ourios-ingest-flush");
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Queues a sealed segment (called by the WAL's writer thread, and during recovery). */
    public void submit(SealedSegment s) {
        queue.add(s);
    }

    /** Why flushing is stuck (a retried failure), or empty while it flows. */
    public java.util.Optional<String> blocked() {
        return java.util.Optional.ofNullable(blockedBy);
    }

    /** Segments sealed and not yet flushed. */
    public int backlog() {
        return queue.size();
    }

    private void run() {
        Duration backoff = Duration.ofMillis(200);
        while (true) {
            SealedSegment s;
            try {
                s = queue.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (s == null) {
                if (stopping) {
                    return;
                }
                continue;
            }
            boolean attempted = false;
            while (true) {
                long start = System.nanoTime();
                try {
                    guard.check();
                    // A failed attempt may have published some files before it failed: the retry checks.
                    flusher.flush(s, s.recovered() || attempted);
                    onFlushed.accept(s);
                    blockedBy = null;
                    listener.segment(System.nanoTime() - start, null);
                    backoff = Duration.ofMillis(200);
                    break;
                } catch (Exception e) {
                    attempted = true;
                    listener.segment(System.nanoTime() - start, e);
                    if (FlushFailures.permanent(e) && quarantined(s, e)) {
                        blockedBy = null;
                        break;
                    }
                    blockedBy = "flushing to the store fails (" + FlushFailures.describe(e) + "); retrying";
                    if (System.nanoTime() > drainDeadline) {
                        LOG.warn("flush of {} failed while stopping; it stays in the WAL for the next start: {}",
                                s.segment().path(), e.toString());
                        return;
                    }
                    LOG.warn("flush of {} failed, retrying in {}: {}", s.segment().path(), backoff, e.toString());
                    try {
                        Thread.sleep(backoff.toMillis()); // a retry pause, not synchronisation
                    } catch (InterruptedException ie) {
                        return;
                    }
                    backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
                }
            }
        }
    }

    private boolean quarantined(SealedSegment s, Exception why) {
        try {
            onPoison.quarantine(s, why);
            LOG.error("WAL segment {} cannot be flushed ({}); quarantined whole for an operator to replay "
                    + "('ourios wal quarantine'), the other segments carry on", s.segment().path().getFileName(),
                    SegmentQuarantine.reason(why));
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.warn("WAL segment {} cannot be flushed ({}) nor quarantined ({}); retrying",
                    s.segment().path().getFileName(), why.toString(), e.toString());
            return false;
        }
    }

    /**
     * Flushes everything queued (the WAL must be closed first, so nothing more arrives) and stops; gives up after
     * {@code max}, leaving what is left in the WAL for the next start.
     */
    public boolean drain(Duration max) throws InterruptedException {
        drainDeadline = System.nanoTime() + max.toNanos();
        stopping = true;
        thread.join(Math.max(1, max.toMillis()));
        return !thread.isAlive() && queue.isEmpty();
    }

    @Override
    public void close() throws InterruptedException {
        drain(Duration.ofMinutes(1));
    }
}
