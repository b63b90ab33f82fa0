package dev.ourios.ingest;

import dev.ourios.ingest.flush.FlushListener;
import dev.ourios.ingest.wal.WalListener;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.util.function.LongSupplier;

/**
 * The ingest instruments (meter {@code ourios.ingest}), named as in {@code semconv/registry/metrics.yaml}: records
 * and bytes received, records rejected by reason, request duration, WAL size and group commits, flushes and their
 * duration.
 */
public final class IngestMetrics implements WalListener, FlushListener {
    static final AttributeKey<String> REASON = AttributeKey.stringKey("ourios.ingest.reason");
    static final AttributeKey<String> RESULT = AttributeKey.stringKey("ourios.ingest.flush.result");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> TENANT = AttributeKey.stringKey("ourios.tenant");

    private final LongCounter records;
    private final LongCounter io;
    private final LongCounter rejected;
    private final DoubleHistogram requestDuration;
    private final LongCounter syncs;
    private final LongCounter flushes;
    private final DoubleHistogram flushDuration;
    private final LongCounter files;
    private final LongCounter quarantined;
    private final Meter meter;
    private final java.util.concurrent.atomic.AtomicLong acceptedTotal = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong rejectedTotal = new java.util.concurrent.atomic.AtomicLong();

    public IngestMetrics(MeterProvider provider) {
        meter = provider.get("ourios.ingest");
        records = meter.counterBuilder("ourios.ingest.records").setUnit("{record}")
                .setDescription("Log records accepted (durable in the write-ahead log)").build();
        io = meter.counterBuilder("ourios.ingest.io").setUnit("By")
                .setDescription("Request body bytes received, as sent (compressed or not)").build();
        rejected = meter.counterBuilder("ourios.ingest.rejected").setUnit("{record}")
                .setDescription("Log records refused, by reason").build();
        requestDuration = meter.histogramBuilder("ourios.ingest.request.duration").setUnit("s")
                .setDescription("Wall time of an export request, until the response").build();
        syncs = meter.counterBuilder("ourios.ingest.wal.syncs").setUnit("{sync}")
                .setDescription("Group commits: fsyncs of the write-ahead log").build();
        flushes = meter.counterBuilder("ourios.ingest.flushes").setUnit("{segment}")
                .setDescription("Write-ahead-log segments flushed to ingest files, by result").build();
        flushDuration = meter.histogramBuilder("ourios.ingest.flush.duration").setUnit("s")
                .setDescription("Wall time of flushing one write-ahead-log segment").build();
        files = meter.counterBuilder("ourios.ingest.files").setUnit("{file}")
                .setDescription("Ingest files published by flushes").build();
        quarantined = meter.counterBuilder("ourios.ingest.quarantined").setUnit("{segment}")
                .setDescription("Write-ahead-log segments moved to the quarantine: their flush cannot succeed")
                .build();
    }

    /** The WAL size gauge, read from the live log. */
    public void observeWal(LongSupplier pendingBytes) {
        meter.upDownCounterBuilder("ourios.ingest.wal.size").setUnit("By")
                .setDescription("Write-ahead-log bytes not yet flushed to ingest files")
                .buildWithCallback(m -> m.record(pendingBytes.getAsLong()));
    }

    /** Records accepted since start, for the status page's rate. */
    public long acceptedTotal() {
        return acceptedTotal.get();
    }

    /** Records refused since start (every reason), for the status page. */
    public long rejectedTotal() {
        return rejectedTotal.get();
    }

    public void accepted(long n) {
        acceptedTotal.addAndGet(n);
        records.add(n);
    }

    /** One WAL segment moved to the quarantine. */
    public void quarantined() {
        quarantined.add(1);
    }

    public void received(long bodyBytes) {
        io.add(bodyBytes);
    }

    public void rejected(String reason, long n) {
        rejectedTotal.addAndGet(n);
        rejected.add(n, Attributes.of(REASON, reason));
    }

    public void request(int status, long nanos) {
        requestDuration.record(nanos / 1e9, Attributes.of(STATUS, (long) status));
    }

    @Override
    public void synced(int frames, long bytes, long nanos) {
        syncs.add(1);
    }

    @Override
    public void file(String tenant, long rows, long bytes, boolean created) {
        if (created) {
            files.add(1, Attributes.of(TENANT, tenant));
        }
    }

    @Override
    public void segment(long nanos, Throwable error) {
        Attributes a = Attributes.of(RESULT, error == null ? "ok" : "error");
        flushes.add(1, a);
        flushDuration.record(nanos / 1e9, a);
    }
}
