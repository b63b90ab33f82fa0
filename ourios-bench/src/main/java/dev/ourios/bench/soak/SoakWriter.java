package dev.ourios.bench.soak;

import dev.ourios.core.PartitionKey;
import dev.ourios.gen.LogGenerator;
import java.util.concurrent.atomic.LongAdder;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The ingest side of the soak: lands every scheduled file through {@link IngestWriter} when the soak clock reaches
 * its due time, on {@code threads} writer threads taking files in schedule order. A writer that falls behind lands
 * at once (catching up) and the lag is recorded, so an unsustainable rate shows up as lag, not as a silently
 * slower clock. Keeps the digest of every row landed, per partition.
 */
public final class SoakWriter {
    private final IngestWriter ingest;
    private final SoakTenants tenants;
    private final TableReader tables;
    private final SoakClock clock;
    private final int threads;

    private final Map<PartitionKey, Digest> landed = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> bytesByTenant = new ConcurrentHashMap<>();
    private final AtomicLong files = new AtomicLong();
    private final AtomicLong rows = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong late = new AtomicLong();
    private final AtomicLong lateIntoCompacted = new AtomicLong();
    private final AtomicLong maxLagNanos = new AtomicLong();

    public SoakWriter(IngestWriter ingest, SoakTenants tenants, TableReader tables, SoakClock clock, int threads) {
        this.ingest = ingest;
        this.tenants = tenants;
        this.tables = tables;
        this.clock = clock;
        this.threads = threads;
    }

    /** Lands every file of {@code schedule}; returns when all are landed, or throws the first failure. */
    public void run(List<Landing> schedule) throws IOException, InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                for (int n; failure.get() == null && (n = next.getAndIncrement()) < schedule.size(); ) {
                    try {
                        land(schedule.get(n));
                    } catch (Exception e) {
                        failure.compareAndSet(null, e);
                    }
                }
            }, "soak-writer-" + i);
            t.start();
            workers.add(t);
        }
        for (Thread t : workers) {
            t.join();
        }
        Exception e = failure.get();
        if (e instanceof IOException io) {
            throw io;
        }
        if (e != null) {
            throw new IllegalStateException("writer failed: " + e, e);
        }
    }

    private void land(Landing l) throws IOException {
        long due = clock.wallNanosAt(l.at());
        for (long wait; (wait = due - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(200)));
        }
        maxLagNanos.accumulateAndGet(System.nanoTime() - due, Math::max);
        LogGenerator generator = tenants.generator(l.tenant());
        PartitionKey p = generator.partition(l.tenant(), l.hour());
        // A covered hour counts as compacted: its rows are in a day partition's files.
        boolean compacted = l.late() && compacted(tables.hourSnapshot(p));
        TappedRows batch = new TappedRows(() -> generator.stream(l.tenant(), l.hour(), l.file()),
                generator.spec().rowsPerFile());
        IngestWriter.LandedFile f = ingest.writeFile(p, batch);
        landed.merge(p, batch.digest(), Digest::plus);
        files.incrementAndGet();
        rows.addAndGet(f.rows());
        bytes.addAndGet(f.bytes());
        bytesByTenant.computeIfAbsent(l.tenant(), t -> new LongAdder()).add(f.bytes());
        if (l.late()) {
            late.incrementAndGet();
            if (compacted) {
                lateIntoCompacted.incrementAndGet();
            }
        }
    }

    private static boolean compacted(dev.ourios.table.PartitionSnapshot s) {
        return s.generation() > 0 || s.isCovered();
    }

    public IngestProgress progress() {
        return new IngestProgress(files.get(), rows.get(), bytes.get(), late.get(), lateIntoCompacted.get(),
                maxLagNanos.get() / 1e9);
    }

    /** Ingest bytes landed per tenant (call once the writer has finished). */
    public Map<String, Long> bytesByTenant() {
        Map<String, Long> out = new TreeMap<>();
        bytesByTenant.forEach((t, n) -> out.put(t, n.sum()));
        return out;
    }

    /** The digest of every row landed, per partition (call once the writer has finished). */
    public Map<PartitionKey, Digest> landed() {
        return new TreeMap<>(landed);
    }
}
