package dev.ourios.compaction.sweep;

import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.RewriteResult;
import dev.ourios.table.CommitKind;
import dev.ourios.store.StoreRequests;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The compaction instruments of STORAGE.md §6, on meter {@code ourios.compaction}. Names, units and attributes are
 * the contract; dashboards and alerts are built on them.
 */
public final class CompactionMetrics {
    public static final String METER = "ourios.compaction";
    public static final AttributeKey<String> RESULT = AttributeKey.stringKey("ourios.compaction.result");
    public static final AttributeKey<String> IO_DIRECTION = AttributeKey.stringKey("ourios.io.direction");
    public static final AttributeKey<String> TENANT = AttributeKey.stringKey("ourios.tenant");
    public static final AttributeKey<String> REQUEST_KIND = AttributeKey.stringKey("ourios.request.kind");

    /**
     * Powers of two from 1 MiB to 4 GiB: the size band's bounds (128 MiB small, 2 GiB the largest file) are bucket
     * bounds, so the share of a tenant's files of at most 128 MiB (RFC 0009's H4) is read off the histogram.
     */
    public static final List<Long> FILE_SIZE_BUCKETS = java.util.stream.LongStream.rangeClosed(20, 32)
            .map(k -> 1L << k).boxed().toList();

    private final LongCounter sweeps;
    private final LongCounter partitions;
    private final LongCounter files;
    private final LongCounter rows;
    private final LongCounter io;
    private final DoubleHistogram duration;
    private final LongCounter orphanFiles;
    private final LongHistogram fileSize;
    private final LongCounter requests;
    private final LongCounter requestBytes;
    /** Last sweep's backlog per tenant; replaced whole after each sweep, read by the observable callback. */
    private volatile Map<String, Long> backlog = Map.of();

    public CompactionMetrics(MeterProvider provider) {
        Meter m = provider.get(METER);
        sweeps = m.counterBuilder("ourios.compaction.sweeps").setUnit("{sweep}")
                .setDescription("Compaction sweeps run, by result").build();
        partitions = m.counterBuilder("ourios.compaction.partitions").setUnit("{partition}")
                .setDescription("Partitions committed by compaction").build();
        files = m.counterBuilder("ourios.compaction.files").setUnit("{file}")
                .setDescription("Input files merged away by compaction").build();
        rows = m.counterBuilder("ourios.compaction.rows").setUnit("{row}")
                .setDescription("Rows rewritten by compaction").build();
        io = m.counterBuilder("ourios.compaction.io").setUnit("By")
                .setDescription("Bytes read (inputs) and written (outputs) by compaction").build();
        duration = m.histogramBuilder("ourios.compaction.duration").setUnit("s")
                .setDescription("Wall-clock duration of a compaction sweep").build();
        orphanFiles = m.counterBuilder("ourios.compaction.orphan.files").setUnit("{file}")
                .setDescription("Compaction outputs left unreferenced (lost commit race or failed commit)").build();
        fileSize = m.histogramBuilder("ourios.storage.parquet.file.size").setUnit("By").ofLongs()
                .setDescription("Size of each committed compacted file")
                .setExplicitBucketBoundariesAdvice(FILE_SIZE_BUCKETS).build();
        requests = m.counterBuilder("ourios.compaction.requests").setUnit("{request}")
                .setDescription("Object store requests made by compactions (rewrite, commit, audit), by kind")
                .build();
        requestBytes = m.counterBuilder("ourios.compaction.requests.io").setUnit("By")
                .setDescription("Bytes returned by the GET requests of compactions").build();
        m.upDownCounterBuilder("ourios.compaction.backlog").setUnit("{partition}")
                .setDescription("Candidate partitions not compacted by the last sweep, per tenant")
                .buildWithCallback(o -> backlog.forEach((t, v) -> o.record(v, Attributes.of(TENANT, t))));
        // Seed the attribute-free counters so a dashboard shows 0, not "no data", before the first commit.
        partitions.add(0);
        files.add(0);
        rows.add(0);
        orphanFiles.add(0);
    }

    /** Records one finished sweep. */
    public void recordSweep(SweepReport report, Map<String, Long> backlogByTenant) {
        Attributes result = Attributes.of(RESULT, report.overall().label());
        sweeps.add(1, result);
        duration.record(report.seconds(), result);
        long read = 0;
        long written = 0;
        for (PartitionResult p : report.partitions()) {
            // Every outcome spent its requests, a lost race or a failure included.
            p.requests().ifPresent(this::recordRequests);
            if (p.action() != CommitKind.COMPACT && p.action() != CommitKind.ROLLUP) {
                continue; // an expiry rewrites nothing: these instruments count compactions and rollups
            }
            if (p.result() == PartitionResult.Result.COMMITTED) {
                partitions.add(1);
                files.add(p.filesIn());
                rows.add(p.rows());
                read += p.bytesIn();
                written += p.bytesOut();
                for (RewriteResult.Output f : p.outputs()) {
                    fileSize.record(f.bytes(), Attributes.of(TENANT, p.partition().tenantId()));
                }
            } else if (p.result() == PartitionResult.Result.NOOP && p.output() != null) {
                orphanFiles.add(p.outputs().size()); // our outputs lost the race: they wait for GC
            }
        }
        io.add(read, Attributes.of(IO_DIRECTION, "read"));
        io.add(written, Attributes.of(IO_DIRECTION, "write"));
        backlog = Map.copyOf(new ConcurrentHashMap<>(backlogByTenant));
    }

    private void recordRequests(StoreRequests r) {
        requests.add(r.list(), Attributes.of(REQUEST_KIND, "list"));
        requests.add(r.head(), Attributes.of(REQUEST_KIND, "head"));
        requests.add(r.get(), Attributes.of(REQUEST_KIND, "get"));
        requests.add(r.put(), Attributes.of(REQUEST_KIND, "put"));
        requests.add(r.delete(), Attributes.of(REQUEST_KIND, "delete"));
        requestBytes.add(r.getBytes(), Attributes.of(REQUEST_KIND, "get"));
    }
}
