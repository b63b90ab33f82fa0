package dev.ourios.server.status;

import dev.ourios.compaction.plan.CompactionPolicy;
import dev.ourios.core.PartitionKey;
import dev.ourios.query.LiveFiles;
import dev.ourios.table.TableLayout;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The store's figures per tenant and the compaction backlog, from one walk of the live sets. A walk costs a listing
 * per partition, so it runs at most once per {@link #MAX_AGE}: requests in between get the last walk's figures (with
 * the time it was taken), and concurrent requests wait for the one walk under way rather than starting their own.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class StoreFigures {
    /** How old the figures may be before a request walks the store again. */
    public static final Duration MAX_AGE = Duration.ofSeconds(30);
    /** Files below this many bytes count as small, the size compaction consolidates towards. */
    public static final long SMALL_FILE_BYTES = 128L << 20;
    /** The most backlog partitions named in the answer (the count is exact). */
    public static final int MAX_NAMED_BACKLOG = 50;

    /** One tenant's live set. */
    public record Tenant(String tenant, int hours, long liveFiles, long bytes, long smallFiles) {
        /** The share of live files below {@link #SMALL_FILE_BYTES}, 0 without files. */
        public double smallFileShare() {
            return liveFiles == 0 ? 0 : (double) smallFiles / liveFiles;
        }
    }

    /**
     * One walk's result.
     *
     * @param waiting        sealed partitions whose live set is not one compacted file (more than one file, or an
     *                       ingest file): the compaction backlog
     * @param waitingNamed   the first {@link #MAX_NAMED_BACKLOG} of them, as {@code tenant hour} labels
     */
    public record Snapshot(Instant takenAt, double walkSeconds, List<Tenant> tenants, long waiting,
            List<String> waitingNamed) {
    }

    private final TableLayout layout;
    private final LiveFiles files;
    private final CompactionPolicy policy;
    private final Clock clock;
    private Snapshot last;

    public StoreFigures(TableLayout layout, LiveFiles files, CompactionPolicy policy, Clock clock) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.files = Objects.requireNonNull(files, "files");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The figures, walked anew when the last walk is older than {@link #MAX_AGE}. */
    public synchronized Snapshot current() throws IOException {
        Instant now = clock.instant();
        if (last == null || !now.isBefore(last.takenAt().plus(MAX_AGE))) {
            last = walk(now);
        }
        return last;
    }

    private Snapshot walk(Instant now) throws IOException {
        long start = System.nanoTime();
        List<Tenant> tenants = new ArrayList<>();
        long waiting = 0;
        List<String> named = new ArrayList<>();
        for (String tenant : layout.tenants()) {
            Map<PartitionKey, long[]> byHour = new HashMap<>(); // files, ingest files
            long n = 0;
            long bytes = 0;
            long small = 0;
            for (LiveFiles.LiveFile f : files.list(tenant, Optional.empty(), Optional.empty(), false)) {
                long[] c = byHour.computeIfAbsent(f.partition(), k -> new long[2]);
                c[0]++;
                if (!f.key().endsWith(".compacted.parquet")) {
                    c[1]++;
                }
                n++;
                bytes += f.size();
                if (f.size() < SMALL_FILE_BYTES) {
                    small++;
                }
            }
            List<PartitionKey> hours = new ArrayList<>(byHour.keySet());
            hours.sort(null);
            for (PartitionKey p : hours) {
                long[] c = byHour.get(p);
                if (policy.isSealed(p, now) && (c[0] > 1 || c[1] > 0)) {
                    waiting++;
                    if (named.size() < MAX_NAMED_BACKLOG) {
                        named.add(tenant + " " + p.hourLabel());
                    }
                }
            }
            tenants.add(new Tenant(tenant, byHour.size(), n, bytes, small));
        }
        return new Snapshot(now, (System.nanoTime() - start) / 1e9, List.copyOf(tenants), waiting,
                List.copyOf(named));
    }
}
