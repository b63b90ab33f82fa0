package dev.ourios.ingest;

import dev.ourios.core.Retention;
import dev.ourios.core.TenantCodec;
import dev.ourios.core.Uuid7;
import dev.ourios.ingest.flush.FlushFailures;
import dev.ourios.ingest.flush.FlushLoop;
import dev.ourios.ingest.flush.LandedRows;
import dev.ourios.ingest.flush.SegmentFlusher;
import dev.ourios.ingest.quarantine.SegmentQuarantine;
import dev.ourios.otlp.OtlpLogsDecoder;
import dev.ourios.otlp.Rejection;
import dev.ourios.otlp.RetentionScreen;
import dev.ourios.otlp.Screened;
import dev.ourios.ingest.wal.WalEntry;
import dev.ourios.ingest.wal.WriteAheadLog;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.StoreMarker;
import dev.ourios.table.LiveSetChanges;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest path, transport aside: decode a request for a tenant, append its accepted records to the write-ahead
 * log, and answer once they are durable. The WAL's sealed segments are flushed to ingest files in the background.
 */
public final class Ingester implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Ingester.class);
    /** How long a request waits for its group commit before it is answered 503 (the disk is stalled). */
    private static final Duration DURABLE_WAIT = Duration.ofSeconds(30);
    static final int RETRY_AFTER_BUSY = 1;
    static final int RETRY_AFTER_BEHIND = 5;

    private final IngestSettings settings;
    private final OtlpLogsDecoder decoder;
    private final IngestMetrics metrics;
    private final WriteAheadLog wal;
    private final FlushLoop flushLoop;
    private final ByteBudget budget;
    private final Retention retention;
    private final Clock clock;
    private final SegmentQuarantine quarantine;
    private volatile boolean stopping;

    private Ingester(IngestSettings settings, OtlpLogsDecoder decoder, IngestMetrics metrics, WriteAheadLog wal,
            FlushLoop flushLoop, SegmentQuarantine quarantine, Retention retention, Clock clock) {
        this.quarantine = quarantine;
        this.retention = retention;
        this.clock = clock;
        this.settings = settings;
        this.decoder = decoder;
        this.metrics = metrics;
        this.wal = wal;
        this.flushLoop = flushLoop;
        this.budget = new ByteBudget(settings.maxBufferBytes(), settings.maxTenantBufferShare());
    }

    /**
     * Opens the WAL (replaying what an earlier process left: those segments are flushed first) and starts. Writes
     * the store's identity marker when it has none ({@link StoreMarker#ensure}); flushes wait while it is missing.
     */
    public static Ingester open(IngestSettings settings, ObjectStore store, IngestMetrics metrics) throws IOException {
        return open(settings, store, metrics, Retention.NONE, Clock.systemUTC());
    }

    /**
     * As above, refusing (through partial success) every record already older than its tenant's {@code retention}
     * by {@code clock}.
     */
    public static Ingester open(IngestSettings settings, ObjectStore store, IngestMetrics metrics,
            Retention retention, Clock clock) throws IOException {
        return open(settings, store, metrics, retention, clock, LiveSetChanges.NONE);
    }

    /** As above, telling {@code changes} of every partition a flush lands an ingest file in. */
    public static Ingester open(IngestSettings settings, ObjectStore store, IngestMetrics metrics,
            Retention retention, Clock clock, LiveSetChanges changes) throws IOException {
        return open(settings, store, metrics, retention, clock, changes, LandedRows.NONE);
    }

    /** As above, handing {@code landedRows} the rows of every ingest file a flush publishes (live tail). */
    public static Ingester open(IngestSettings settings, ObjectStore store, IngestMetrics metrics,
            Retention retention, Clock clock, LiveSetChanges changes, LandedRows landedRows) throws IOException {
        // The ingester writes into this store from now on: a store without a marker (new, or made before markers)
        // is claimed here, and every flush then checks that the marker is still there.
        StoreMarker.ensure(store);
        OtlpLogsDecoder decoder = new OtlpLogsDecoder();
        SegmentFlusher flusher = new SegmentFlusher(new IngestWriter(store),
                new TableReader(store, new ManifestCodec()), decoder, metrics, changes, landedRows);
        WriteAheadLog[] walRef = new WriteAheadLog[1];
        SegmentQuarantine quarantine = new SegmentQuarantine(settings.walDir());
        FlushLoop loop = new FlushLoop(flusher, s -> {
            try {
                walRef[0].delete(s);
            } catch (IOException e) {
                // Published already; a replay would skip every file (create-only), so this only costs disk.
                LOG.warn("could not delete flushed WAL segment {}: {}", s.segment().path(), e.toString());
            }
            walRef[0].released(s);
        }, (s, why) -> {
            quarantine.moveIn(s.segment(), why);
            walRef[0].released(s);
            metrics.quarantined();
        }, () -> {
            if (!StoreMarker.present(store)) {
                throw new IOException("the store's identity marker " + StoreMarker.KEY + " is missing (a volume not "
                        + "mounted, a bucket or prefix deleted?); nothing is written until it is back");
            }
        }, metrics);
        WriteAheadLog wal = WriteAheadLog.open(settings.walDir(), settings.flushBytes(), settings.flushInterval(),
                Uuid7.system(), loop::submit, metrics);
        walRef[0] = wal;
        metrics.observeWal(wal::pendingBytes);
        loop.start();
        return new Ingester(settings, decoder, metrics, wal, loop, quarantine, retention, clock);
    }

    public ByteBudget budget() {
        return budget;
    }

    /** Where segments whose flush cannot succeed are kept ({@code <ingest.wal_dir>/quarantine}). */
    public SegmentQuarantine quarantine() {
        return quarantine;
    }

    public IngestMetrics metrics() {
        return metrics;
    }

    public IngestSettings settings() {
        return settings;
    }

    /** Why a new request must be turned away before its body is read, or null when it may come in. */
    public IngestResult admission() {
        if (stopping) {
            return IngestResult.refused(503, "the receiver is shutting down", RETRY_AFTER_BEHIND);
        }
        Optional<String> walDown = walUnwritable();
        if (walDown.isPresent()) {
            return IngestResult.refused(503, walDown.get(), RETRY_AFTER_BEHIND);
        }
        if (wal.pendingBytes() >= settings.walMaxBytes()) {
            return IngestResult.refused(503, "the write-ahead log holds " + wal.pendingBytes()
                    + " bytes not yet flushed (ingest.wal_max_bytes " + settings.walMaxBytes() + ")",
                    RETRY_AFTER_BEHIND);
        }
        return null;
    }

    /**
     * Why records cannot be accepted for {@code tenant} (status 400: an invalid argument, which no retry fixes), or
     * null when they can. Checked before a request's body is read, and again by {@link #ingest}: a tenant id over
     * {@link TenantCodec#MAX_TENANT_BYTES} would be durable in the WAL and then never fit a partition path.
     */
    public IngestResult tenantRefusal(String tenant) {
        try {
            TenantCodec.requireAcceptable(tenant);
            return null;
        } catch (IllegalArgumentException e) {
            return IngestResult.refused(400, e.getMessage(), 0);
        }
    }

    /**
     * Decodes and stores one request for one tenant; returns when its accepted records are durable (200, with the
     * rejections for partial success) or refused as a whole.
     */
    public IngestResult ingest(String tenant, ExportLogsServiceRequest request) throws InterruptedException {
        IngestResult badTenant = tenantRefusal(tenant);
        if (badTenant != null) {
            return badTenant;
        }
        Screened decoded = decoder.screen(request, RetentionScreen.of(tenant, retention, clock.instant()));
        for (Rejection r : decoded.rejections()) {
            metrics.rejected(r.reason(), 1);
        }
        if (decoded.accepted() == 0) {
            return IngestResult.durable(0, decoded.rejections(), decoded.errorMessage());
        }
        IngestResult refused = admission();
        if (refused != null) {
            return refused;
        }
        try {
            wal.append(new WalEntry(tenant, decoded.kept().toByteArray()))
                    .get(DURABLE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            LOG.warn("OTLP request not stored: {}", e.getCause().toString());
            return IngestResult.refused(503, "not stored: the write-ahead log failed ("
                    + e.getCause().getClass().getSimpleName() + "); the server log has the cause", RETRY_AFTER_BEHIND);
        } catch (TimeoutException e) {
            return IngestResult.refused(503, "not stored: the write-ahead log did not sync within " + DURABLE_WAIT,
                    RETRY_AFTER_BEHIND);
        }
        metrics.accepted(decoded.accepted());
        return IngestResult.durable(decoded.accepted(), decoded.rejections(), decoded.errorMessage());
    }

    /**
     * Why the ingest path cannot take records now, for readiness: the WAL cannot be written, or the flusher cannot
     * reach the store. Empty when it can. Never names a server path (the log has it).
     */
    public Optional<String> notReady() {
        Optional<String> walDown = walUnwritable();
        if (walDown.isPresent()) {
            return walDown;
        }
        return flushLoop.blocked();
    }

    private Optional<String> walUnwritable() {
        return wal.failure().map(e -> "the write-ahead log cannot be written (" + FlushFailures.describe(e)
                + "); appends are retried every second");
    }

    /** Refuses new requests from now on (503); what was accepted is still made durable and flushed. */
    public void stopAccepting() {
        stopping = true;
    }

    /** The WAL's group commits so far. */
    public long walSyncs() {
        return wal.syncs();
    }

    public long walPendingBytes() {
        return wal.pendingBytes();
    }

    /**
     * Stops taking requests, makes everything queued durable, seals the open segment and flushes every segment
     * (at most {@code max}); what could not be flushed stays in the WAL for the next start.
     */
    public boolean drain(Duration max) throws InterruptedException {
        stopping = true;
        wal.close();
        boolean flushed = flushLoop.drain(max);
        LOG.info("ingest drained: {} bytes left in the WAL", wal.pendingBytes());
        return flushed && wal.pendingBytes() == 0;
    }

    @Override
    public void close() throws InterruptedException {
        drain(Duration.ofMinutes(1));
    }
}
