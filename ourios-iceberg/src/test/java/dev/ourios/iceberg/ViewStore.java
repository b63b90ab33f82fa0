package dev.ourios.iceberg;

import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.FileRetention;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.GcReport;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.table.ingest.IngestWriter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.iceberg.Table;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.Parquet;
import java.util.Map;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;

/**
 * A real local store plus its Iceberg view, with the three readers the tests hold against each other: Iceberg's own
 * generic reader over the view, our query engine, and DuckDB over {@code ourios files}' live set.
 */
final class ViewStore implements AutoCloseable {
    /** Far after every generated hour: every partition is sealed and may be compacted. */
    static final Clock LATER = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);

    final ObjectStore store;
    final TableLayout layout;
    final TableReader tables;
    final StoreLocation location;
    final IcebergView view;
    /** The form {@link #sync} makes or keeps the view in. */
    ViewForm form = ViewForm.TIMESTAMP_NS;
    private Connection duck;

    ViewStore(Path root) {
        this(new LocalObjectStore(root), StoreLocation.local(root), ViewLayout.DEFAULT);
    }

    ViewStore(ObjectStore store, StoreLocation location, ViewLayout viewLayout) {
        this.store = store;
        this.layout = new TableLayout(store);
        this.tables = new TableReader(store, new ManifestCodec());
        this.location = location;
        this.view = new IcebergView(store, location, viewLayout);
    }

    /** The same store seen through another table location (a from-scratch rebuild beside the first view). */
    ViewStore withView(ViewLayout other) {
        return new ViewStore(store, location, other);
    }

    String ingest(PartitionKey p, List<LogRecord> rows) throws IOException {
        return new IngestWriter(store).writeFile(p, rows).key();
    }

    /**
     * Lands every file of {@code gen} for {@code tenants}: {@code hours} hours of {@code filesPerHour} files each.
     * Returns the rows landed, by tenant.
     */
    java.util.Map<String, List<LogRecord>> ingestAll(dev.ourios.gen.LogGenerator gen, List<String> tenants, int hours,
            int filesPerHour) throws IOException {
        java.util.Map<String, List<LogRecord>> rows = new java.util.TreeMap<>();
        for (String t : tenants) {
            for (int h = 0; h < hours; h++) {
                for (int f = 0; f < filesPerHour; f++) {
                    List<LogRecord> file = gen.file(t, h, f);
                    ingest(gen.partition(t, h), file);
                    rows.computeIfAbsent(t, k -> new ArrayList<>()).addAll(file);
                }
            }
        }
        return rows;
    }

    /**
     * Commits the next generation of a covered hour on top of its cover, as a racing compactor that planned before
     * the cover would (storage.md section 4.15): the cover is void and the hour's own files hold its rows again.
     */
    void voidCover(PartitionKey hour) throws IOException {
        long g = tables.hourSnapshot(hour).generation();
        dev.ourios.table.Manifest current = tables.readManifest(hour, g);
        String key = dev.ourios.table.ManifestKeys.key(hour, g + 1);
        if (!store.putIfAbsent(key, new ManifestCodec().encode(key, new dev.ourios.table.Manifest(
                dev.ourios.table.Manifest.FORMAT, g + 1, current.files(), current.retired(), null)))) {
            throw new IllegalStateException("generation " + (g + 1) + " of " + hour + " already exists");
        }
    }

    SyncResult sync() throws IOException {
        return sync(SyncScope.all());
    }

    SyncResult sync(SyncScope scope) throws IOException {
        return new IcebergSync(store, view, new StoreLiveSet(layout, tables), Clock.systemUTC(), form).sync(scope);
    }

    /** The partitions a sweep committed: what a partial sync after it must cover. */
    static List<PartitionKey> committed(SweepReport report) {
        return report.partitions().stream()
                .filter(r -> r.result() == dev.ourios.compaction.PartitionResult.Result.COMMITTED)
                .map(dev.ourios.compaction.PartitionResult::partition).toList();
    }

    /** Store keys of the live set of every partition, as queries resolve it. */
    List<String> liveKeys() throws IOException {
        List<String> out = new ArrayList<>();
        for (PartitionKey p : layout.partitions(PartitionFilter.all())) {
            tables.snapshot(p).live().forEach(o -> out.add(o.key()));
        }
        return out.stream().sorted().toList();
    }

    Table table() {
        return view.table().orElseThrow();
    }

    /**
     * One compaction sweep of every sealed partition, late files folded into their hours; retired inputs stay (GC
     * grace of ten years).
     */
    SweepReport compact(Path scratch) {
        return compact(scratch, o -> o);
    }

    /** As {@link #compact(Path)}, with the options {@code adjust} makes of those (a rollup, a retention). */
    SweepReport compact(Path scratch, java.util.function.UnaryOperator<CompactionOptions> adjust) {
        // Max tail ratio 0: late files fold into their hour, so a sweep after late data commits every such hour.
        CompactionOptions opts = adjust.apply(CompactionOptions.defaults(scratch).withGcGrace(Duration.ofDays(3650))
                .withMaxTailRatio(0));
        SweepReport r = CompactionWiring.sweepRunner(SweepSettings.of(store, opts).withPlanClock(LATER))
                .sweep(PartitionFilter.all(), x -> { });
        if (r.hasErrors()) {
            throw new IllegalStateException("sweep failed: " + r);
        }
        return r;
    }

    GcReport gc(Duration grace, FileRetention retention) throws IOException {
        return new GarbageCollector(store, layout, tables, new GcOptions(grace, false), Clock.systemUTC(), retention)
                .run(PartitionFilter.all());
    }

    IcebergRetention retention() {
        return new IcebergRetention(view, Clock.systemUTC());
    }

    // ---- the three readers

    /**
     * The rows Iceberg's generic Parquet reader returns for {@code filter}: files planned by Iceberg's scan (partition
     * and metrics pruning), each read with the table's name mapping as engines do, the residual applied exactly.
     * Identity partition values are not substituted, so {@code tenant_id} comes from the files themselves. The
     * task's delete files (the deletes hiding a day file's dead rows) are applied by Iceberg's generic delete filter.
     */
    List<Record> icebergRows(Expression filter) throws IOException {
        return icebergRows(filter, true);
    }

    /**
     * As {@link #icebergRows(Expression)}; with {@code residual} false, the files and row groups are planned on the
     * filter but every row of them is returned (Iceberg's Java reader cannot evaluate a residual on the {@code long}
     * form's time columns, which it reads as timestamps; the caller filters).
     */
    List<Record> icebergRows(Expression filter, boolean applyResidual) throws IOException {
        Table t = table();
        Schema schema = t.schema();
        NameMapping mapping = NameMappingParser.fromJson(t.properties().get(TableProperties.DEFAULT_NAME_MAPPING));
        List<Record> out = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = t.newScan().filter(filter).planFiles()) {
            for (FileScanTask task : tasks) {
                Expression rowFilter = applyResidual ? task.residual() : Expressions.alwaysTrue();
                Evaluator residual = new Evaluator(schema.asStruct(), rowFilter, true);
                GenericDeleteFilter deletes = new GenericDeleteFilter(t.io(), task, schema, schema);
                Schema read = deletes.requiredSchema();
                InternalRecordWrapper wrapper = new InternalRecordWrapper(read.asStruct());
                try (CloseableIterable<Record> it = Parquet.read(t.io().newInputFile(task.file().location()))
                        .project(read).withNameMapping(mapping).filter(rowFilter)
                        .createReaderFunc(fs -> GenericParquetReaders.buildReader(read, fs, Map.of())).build()) {
                    for (Record r : deletes.filter(it)) {
                        if (residual.eval(wrapper.wrap(r))) {
                            out.add(r.copy());
                        }
                    }
                }
            }
        }
        return out;
    }

    long ourCount(Query q) throws IOException {
        return new QueryEngine(store, layout, tables, MeterProvider.noop()).count(q).rows();
    }

    long duckCount(Query q) throws Exception {
        List<String> paths = new LiveFiles(store, layout, tables).paths(q.tenant(), Optional.empty(), Optional.empty());
        if (paths.isEmpty()) {
            return 0;
        }
        if (duck == null) {
            Properties props = new Properties();
            props.setProperty("autoinstall_known_extensions", "false");
            props.setProperty("autoload_known_extensions", "false");
            duck = DriverManager.getConnection("jdbc:duckdb:", props);
        }
        List<Object> args = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT count(*) FROM read_parquet(")
                .append(paths.stream().map(p -> "'" + p + "'").collect(Collectors.joining(",", "[", "]")))
                .append(", union_by_name = true) WHERE tenant_id = ?");
        args.add(q.tenant());
        q.from().ifPresent(f -> {
            sql.append(" AND epoch_ns(effective_time_unix_nano) >= ?");
            args.add(q.fromNanos());
        });
        q.to().ifPresent(t -> {
            sql.append(" AND epoch_ns(effective_time_unix_nano) < ?");
            args.add(q.toNanos());
        });
        q.service().ifPresent(s -> {
            sql.append(" AND \"resource.service.name\" = ?");
            args.add(s);
        });
        q.severityMin().ifPresent(n -> {
            sql.append(" AND severity_number >= ?");
            args.add(n);
        });
        try (PreparedStatement ps = duck.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The Iceberg expression of the query's filters (tenant, window, service, minimum severity). */
    static Expression icebergFilter(Query q) {
        Expression e = Expressions.equal("tenant_id", q.tenant());
        if (q.from().isPresent()) {
            e = Expressions.and(e, Expressions.greaterThanOrEqual("effective_time_unix_nano", nanosLiteral(q.fromNanos())));
        }
        if (q.to().isPresent()) {
            e = Expressions.and(e, Expressions.lessThan("effective_time_unix_nano", nanosLiteral(q.toNanos())));
        }
        if (q.service().isPresent()) {
            e = Expressions.and(e, Expressions.equal("resource.service.name", q.service().get()));
        }
        if (q.severityMin().isPresent()) {
            e = Expressions.and(e, Expressions.greaterThanOrEqual("severity_number", q.severityMin().getAsInt()));
        }
        return e;
    }

    /** A timestamp literal with all nine fractional digits (Iceberg parses it into a nanosecond timestamp). */
    static String nanosLiteral(long nanos) {
        Instant i = Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
        return String.format("%s.%09d+00:00", java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss")
                .format(OffsetDateTime.ofInstant(i, ZoneOffset.UTC)), i.getNano());
    }

    // ---- value fingerprints: every column the view exposes, as stored

    static String fingerprint(LogRecord r) {
        StringBuilder b = new StringBuilder();
        b.append(r.tenantId()).append('|').append(Integer.toUnsignedLong(r.templateVersion())).append('|')
                .append(r.timeUnixNano()).append('|').append(r.observedTimeUnixNano()).append('|')
                .append(r.severityNumber()).append('|').append(r.severityText()).append('|')
                .append(r.scopeName()).append('|').append(r.scopeVersion()).append('|').append(r.attributes())
                .append('|').append(Integer.toUnsignedLong(r.droppedAttributesCount())).append('|')
                .append(r.resourceAttributes()).append('|').append(Bytes.hex(r.traceId())).append('|')
                .append(Bytes.hex(r.spanId())).append('|').append(Integer.toUnsignedLong(r.flags())).append('|')
                .append(r.eventName()).append('|').append(r.bodyKind()).append('|').append(Bytes.hex(r.body()))
                .append('|');
        r.params().forEach(p -> b.append(p.typeTag()).append(':').append(Bytes.hex(p.value())).append(','));
        b.append('|');
        r.separators().forEach(s -> b.append(Bytes.hex(s)).append(','));
        b.append('|').append(r.confidence()).append('|').append(r.lossyFlag()).append('|')
                .append(r.scopeAttributes()).append('|').append(r.resourceSchemaUrl()).append('|')
                .append(r.scopeSchemaUrl()).append('|').append(r.serviceName());
        return b.toString();
    }

    static String fingerprint(Record r) {
        StringBuilder b = new StringBuilder();
        b.append(r.getField("tenant_id")).append('|').append(r.getField("template_version")).append('|')
                .append(nanos(r.getField("time_unix_nano"))).append('|')
                .append(nanos(r.getField("observed_time_unix_nano"))).append('|')
                .append(r.getField("severity_number")).append('|').append(r.getField("severity_text")).append('|')
                .append(r.getField("scope_name")).append('|').append(r.getField("scope_version")).append('|')
                .append(r.getField("attributes")).append('|').append(r.getField("dropped_attributes_count"))
                .append('|').append(r.getField("resource_attributes")).append('|')
                .append(Bytes.hex(bytes(r.getField("trace_id")))).append('|')
                .append(Bytes.hex(bytes(r.getField("span_id")))).append('|').append(r.getField("flags")).append('|')
                .append(r.getField("event_name")).append('|').append(r.getField("body_kind")).append('|')
                .append(Bytes.hex(bytes(r.getField("body")))).append('|');
        for (Object o : (List<?>) r.getField("params")) {
            Record p = (Record) o;
            b.append(p.getField("type_tag")).append(':').append(Bytes.hex(bytes(p.getField("value")))).append(',');
        }
        b.append('|');
        for (Object o : (List<?>) r.getField("separators")) {
            b.append(Bytes.hex(bytes(o))).append(',');
        }
        b.append('|').append(r.getField("confidence")).append('|').append(r.getField("lossy_flag")).append('|')
                .append(r.getField("scope_attributes")).append('|').append(r.getField("resource_schema_url"))
                .append('|').append(r.getField("scope_schema_url")).append('|')
                .append(r.getField("resource.service.name"));
        return b.toString();
    }

    /**
     * A time column as a reader returns it, in nanoseconds since the epoch: an {@code OffsetDateTime} in the
     * {@code timestamp_ns} form, a {@code long} in the {@code long} form.
     */
    static Long nanos(Object ts) {
        if (ts == null || ts instanceof Long) {
            return (Long) ts;
        }
        Instant i = ((OffsetDateTime) ts).toInstant();
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
    }

    static byte[] bytes(Object o) {
        if (o == null) {
            return null;
        }
        if (o instanceof byte[] a) {
            return a;
        }
        ByteBuffer bb = ((ByteBuffer) o).duplicate();
        byte[] a = new byte[bb.remaining()];
        bb.get(a);
        return a;
    }

    @Override
    public void close() throws Exception {
        if (duck != null) {
            duck.close();
        }
        store.close();
    }
}
