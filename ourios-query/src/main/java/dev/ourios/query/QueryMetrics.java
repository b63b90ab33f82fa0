package dev.ourios.query;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterProvider;

/**
 * The query-side instruments of STORAGE.md §6 on meter {@code ourios.query}: {@code ourios.query.row_groups}
 * {row_group} by {@code ourios.query.row_group.state} = scanned | pruned, and {@code ourios.query.duration} (s) by
 * {@code ourios.query.kind} = logs, plus {@code error.type} on failures. Both row-group series are seeded at 0 so
 * a dashboard's pruned fraction has both terms from the first scrape.
 */
final class QueryMetrics {
    static final String METER = "ourios.query";
    static final AttributeKey<String> STATE = AttributeKey.stringKey("ourios.query.row_group.state");
    static final AttributeKey<String> KIND = AttributeKey.stringKey("ourios.query.kind");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final Attributes SCANNED = Attributes.of(STATE, "scanned");
    private static final Attributes PRUNED = Attributes.of(STATE, "pruned");
    private static final Attributes LOGS = Attributes.of(KIND, "logs");

    private final LongCounter rowGroups;
    private final DoubleHistogram duration;

    QueryMetrics(MeterProvider provider) {
        Meter meter = provider.meterBuilder(METER).build();
        rowGroups = meter.counterBuilder("ourios.query.row_groups").setUnit("{row_group}")
                .setDescription("Row groups of queried files, by whether their data was read or pruned").build();
        duration = meter.histogramBuilder("ourios.query.duration").setUnit("s")
                .setDescription("Wall time of a query").build();
        rowGroups.add(0, SCANNED);
        rowGroups.add(0, PRUNED);
    }

    void record(QueryStats s, long elapsedNanos) {
        rowGroups.add(s.rowGroupsScanned(), SCANNED);
        rowGroups.add(s.rowGroupsPruned(), PRUNED);
        duration.record(elapsedNanos / 1e9, LOGS);
    }

    void failed(Throwable e, long scanned, long pruned, long elapsedNanos) {
        rowGroups.add(scanned, SCANNED);
        rowGroups.add(pruned, PRUNED);
        duration.record(elapsedNanos / 1e9, LOGS.toBuilder().put(ERROR_TYPE, e.getClass().getName()).build());
    }
}
