package dev.ourios.query;

import dev.ourios.core.Failures;
import dev.ourios.core.PartitionKey;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads the partitions of a count or a visit several at once: up to {@code threads} workers (the query's thread is
 * the first) each take the next unread partition and read it alone, through a {@link PartitionScan} of one thread
 * with counters of its own, summed into the query's at the end. Whatever a worker hands on per partition (a count,
 * an aggregate's visitors) does not depend on which worker read it, so the answer does not either.
 *
 * <p>A failure on any worker fails the read: the helpers still reading are interrupted (a partition read checks
 * for that as it goes, see {@link PartitionScan}) and the first failure is rethrown once every helper has ended.
 * An interrupted query thread ends the helpers the same way. A set {@code stop} (a visitor asked to end) lets no
 * worker take another partition.
 */
final class PartitionPool {
    /** A scan whose reads tally into {@code counters} (one worker's). */
    @FunctionalInterface
    interface Scans {
        PartitionScan scan(ScanCounters counters);
    }

    /** Reads one partition with {@code scan}, tallying the rows it hands on into {@code counters}. */
    @FunctionalInterface
    interface PartitionTask {
        void read(PartitionScan scan, ScanCounters counters, PartitionKey partition) throws IOException;
    }

    private final List<PartitionKey> partitions;
    private final int threads;
    private final AtomicBoolean stop;
    private final QueryThreads helperThreads;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    PartitionPool(List<PartitionKey> partitions, int threads, AtomicBoolean stop, QueryThreads helperThreads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.partitions = List.copyOf(partitions);
        this.threads = threads;
        this.stop = stop;
        this.helperThreads = helperThreads;
    }

    /** Reads every partition (or until {@code stop} is set) and adds the workers' counters to {@code total}. */
    void run(Scans scans, PartitionTask task, ScanCounters total) throws IOException {
        int helperCount = Math.min(threads, partitions.size()) - 1;
        List<ScanCounters> tallies = new ArrayList<>();
        List<QueryThreads.Helper> helpers = new ArrayList<>();
        for (int i = 1; i <= helperCount; i++) {
            ScanCounters tally = new ScanCounters();
            tallies.add(tally);
            helpers.add(helperThreads.start(() -> work(scans.scan(tally), tally, task)));
        }
        ScanCounters own = new ScanCounters();
        tallies.add(own);
        try {
            work(scans.scan(own), own, task);
        } finally {
            if (failure.get() != null) {
                helpers.forEach(QueryThreads.Helper::interrupt);
            }
            joinAll(helpers);
            tallies.forEach(total::add);
        }
        if (failure.get() != null) {
            Failures.rethrow(failure.get());
        }
    }

    private void work(PartitionScan scan, ScanCounters tally, PartitionTask task) {
        try {
            while (failure.get() == null && !stop.get()) {
                int i = next.getAndIncrement();
                if (i >= partitions.size()) {
                    return;
                }
                task.read(scan, tally, partitions.get(i));
            }
        } catch (IOException | RuntimeException | Error e) {
            Failures.keepFirst(failure, e);
        }
    }

    /**
     * Waits for every helper. Interrupted while waiting, it interrupts them, still waits for them to end (a helper
     * checks for the interrupt as it reads, so this is short) and records the interrupt as the read's failure.
     */
    private void joinAll(List<QueryThreads.Helper> helpers) {
        boolean interrupted = false;
        for (QueryThreads.Helper t : helpers) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                    failure.compareAndSet(null, new InterruptedIOException("the query was cancelled"));
                    helpers.forEach(QueryThreads.Helper::interrupt);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
