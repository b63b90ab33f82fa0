package dev.ourios.iceberg;

import dev.ourios.parquet.LogSchema;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.Transactions;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types.NestedField;
import org.apache.parquet.schema.PrimitiveType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the Iceberg view in line with the store's live set in one snapshot (plan, read the new files' footers,
 * evolve the schema, commit), for every partition or for the partitions of a {@link SyncScope}: a partial sync
 * lists, reads and rewrites only what its partitions need, so its cost follows the partitions that changed. The view is derived: the sync reads manifests and footers and writes only under
 * {@code iceberg/logs/metadata/}; it never changes a data file or a manifest. If another syncer commits first, the
 * sync plans again from the new version (bounded attempts), so two syncers never both win one version.
 */
public final class IcebergSync {
    private static final Logger LOG = LoggerFactory.getLogger(IcebergSync.class);
    /** Attempts before giving up when other syncers keep committing first. */
    static final int MAX_ATTEMPTS = 8;
    /** Footers read at once: on S3 each is two ranged GETs with tens of milliseconds of latency. */
    static final int FOOTER_THREADS = 8;
    /**
     * Iceberg manifests roll over at this size (a few hundred files each; Iceberg checks every 250 entries), so a
     * commit that removes a file rewrites one small manifest, not one holding the whole table. The files of one
     * commit are added in key order (tenant, then hour), so each manifest covers a narrow range of partitions and
     * its partition summary in the manifest list lets a partial sync skip the others.
     */
    static final String MANIFEST_TARGET_BYTES = Integer.toString(32 * 1024);

    private final ObjectStore store;
    private final IcebergView view;
    private final StoreLiveSet liveSet;
    private final Clock clock;
    private final ViewForm form;

    public IcebergSync(ObjectStore store, IcebergView view, StoreLiveSet liveSet, Clock clock, ViewForm form) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.view = Objects.requireNonNull(view, "view is null");
        this.form = Objects.requireNonNull(form, "form is null");
        this.liveSet = Objects.requireNonNull(liveSet, "liveSet is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    /** A full reconciliation: every partition of the store. */
    public SyncResult sync() throws IOException {
        return sync(SyncScope.all());
    }

    /**
     * Brings the partitions of {@code scope} in line. A partial scope on a store without a view widens to a full
     * sync: the table's first snapshot holds every partition.
     */
    public SyncResult sync(SyncScope scope) throws IOException {
        Objects.requireNonNull(scope, "scope is null");
        Instant start = clock.instant();
        Exception last = null;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            try {
                return attempt(scope, attempt, start);
            } catch (CommitFailedException e) {
                last = e;
                LOG.info("iceberg sync attempt {} lost to another writer; planning again: {}", attempt, e.getMessage());
            } catch (NoSuchObjectException | NotFoundException e) {
                // A planned file went between the listing and its footer read (committed over and collected), or
                // a metadata file was expired under the read: the plan is stale, so plan again, as a query does.
                last = e;
                LOG.info("iceberg sync attempt {} found a planned object gone; planning again: {}", attempt,
                        e.getMessage());
            }
        }
        throw new IOException("Iceberg view of " + store.describe("") + " not synced after " + MAX_ATTEMPTS
                + " attempts (" + last.getMessage() + ")", last);
    }

    private SyncResult attempt(SyncScope requested, int attempt, Instant start) throws IOException {
        StoreTableOperations ops = view.operations().pin();
        TableMetadata base = ops.current();
        int baseVersion = ops.version();
        SyncScope asked = base == null ? SyncScope.all() : requested;
        Optional<Table> existing = base == null ? Optional.empty()
                : Optional.of(new org.apache.iceberg.BaseTable(ops, IcebergView.NAME));
        existing.ifPresent(t -> ViewSchema.checkForm(t.schema(), form, view.tableUri()));
        StoreLiveSet.Resolved resolved = liveSet.resolve(asked);
        SortedMap<String, StoreLiveSet.LiveFile> live = resolved.files();
        // Both sides of the comparison cover the same partitions: those resolved (a day with a day partition is
        // resolved whole), or all of them.
        SyncScope scope = resolved.scope();
        SortedMap<String, DataFile> current = existing.map(t -> IcebergView.currentFiles(t, view.location(), scope))
                .orElseGet(TreeMap::new);
        SortedMap<String, DeleteFile> deletes = existing
                .map(t -> IcebergView.currentDeletes(t, view.location(), view.layout(), scope)).orElseGet(TreeMap::new);
        SyncPlan plan = SyncPlan.of(live, current, deletes);
        if (plan.isEmpty() && base != null) {
            Snapshot snapshot = base.currentSnapshot();
            return new SyncResult(false, baseVersion, snapshot == null ? 0 : snapshot.snapshotId(), scope.isFull(),
                    resolved.partitions(), 0, 0, 0, totalDataFiles(snapshot), List.of(), attempt,
                    Duration.between(start, clock.instant()));
        }
        List<FileFooterFacts> footers = readFooters(plan.add());
        footers.forEach(this::warnIfUnreadable);

        Transaction txn = base == null
                ? Transactions.createTableTransaction(IcebergView.NAME, ops, newTableMetadata())
                : Transactions.newTransaction(IcebergView.NAME, ops);
        List<String> added = evolveSchema(txn, footers);
        boolean daySpecAdded = false;
        if (ViewSchema.daySpec(txn.table().specs()).isEmpty()
                && plan.add().stream().anyMatch(StoreLiveSet.LiveFile::isDayFile)) {
            ViewSchema.addDaySpec(txn, form);
            daySpecAdded = true;
        }
        Schema schema = txn.table().schema();
        PartitionSpec spec = txn.table().spec();
        Optional<PartitionSpec> daySpec = ViewSchema.daySpec(txn.table().specs());
        if (!added.isEmpty() || daySpecAdded || base == null) {
            txn.updateProperties().set(TableProperties.DEFAULT_NAME_MAPPING,
                    NameMappingParser.toJson(MappingUtil.create(schema))).commit();
        }
        if (!MANIFEST_TARGET_BYTES.equals(txn.table().properties().get(TableProperties.MANIFEST_TARGET_SIZE_BYTES))) {
            // A view made before manifests were kept small takes the setting with its next commit.
            txn.updateProperties().set(TableProperties.MANIFEST_TARGET_SIZE_BYTES, MANIFEST_TARGET_BYTES).commit();
        }
        Map<String, StoreLiveSet.LiveFile> partitions = new HashMap<>();
        plan.add().forEach(f -> partitions.put(f.object().key(), f));
        DeadRowDeletes deadRows = new DeadRowDeletes(store, view, ops.io(), form);
        List<DeleteFile> written = new ArrayList<>();
        for (StoreLiveSet.LiveFile f : plan.writeDeletes()) {
            deadRows.write(f, daySpec.orElseThrow()).ifPresent(written::add);
        }
        SnapshotUpdate<?> update;
        if (plan.changesDeletes()) {
            RowDelta delta = txn.newRowDelta();
            if (base != null && base.currentSnapshot() != null) {
                // Planned on this snapshot: only a DV added after it would be concurrent (none can be: a lost
                // race fails the create-only commit and is planned again).
                delta.validateFromSnapshot(base.currentSnapshot().snapshotId());
            }
            plan.remove().forEach(delta::removeRows);
            plan.removeDeletes().forEach(delta::removeDeletes);
            footers.forEach(f -> delta.addRows(dataFile(f, partitions.get(f.key()), schema, spec, daySpec)));
            written.forEach(delta::addDeletes);
            update = delta;
        } else if (plan.remove().isEmpty()) {
            AppendFiles append = txn.newAppend();
            footers.forEach(f -> append.appendFile(dataFile(f, partitions.get(f.key()), schema, spec, daySpec)));
            update = append;
        } else {
            OverwriteFiles overwrite = txn.newOverwrite();
            plan.remove().forEach(overwrite::deleteFile);
            footers.forEach(f -> overwrite.addFile(dataFile(f, partitions.get(f.key()), schema, spec, daySpec)));
            update = overwrite;
        }
        update.set("ourios.partitions-changed", Integer.toString(plan.changedPartitions().size()));
        update.set("ourios.sync", scope.isFull() ? "full" : "partial");
        try {
            update.commit();
            txn.commitTransaction();
        } catch (RuntimeException e) {
            deadRows.discard(written);
            throw e;
        }

        // Ours, whatever another syncer commits next: the version after the one planned on, and the snapshot made.
        Snapshot made = txn.table().currentSnapshot();
        SyncResult result = new SyncResult(true, baseVersion + 1, made.snapshotId(), scope.isFull(),
                resolved.partitions(), plan.changedPartitions().size(), plan.add().size(), plan.remove().size(),
                totalDataFiles(made), added, attempt, Duration.between(start, clock.instant()));
        LOG.info("iceberg sync ({}): version {}, {} of {} partition(s) read changed, +{} -{} file(s), {} live",
                result.full() ? "full" : "partial", result.version(), result.partitionsChanged(),
                result.partitionsRead(), result.filesAdded(), result.filesRemoved(), result.liveFiles());
        return result;
    }

    /** The data files a snapshot references, from its summary (no manifest is read); 0 without a snapshot. */
    private static int totalDataFiles(Snapshot snapshot) {
        if (snapshot == null || snapshot.summary() == null) {
            return 0;
        }
        String total = snapshot.summary().get(SnapshotSummary.TOTAL_DATA_FILES_PROP);
        return total == null ? 0 : Integer.parseInt(total);
    }

    private TableMetadata newTableMetadata() {
        Schema schema = ViewSchema.base(form);
        Map<String, String> props = new TreeMap<>();
        // v3 is the first format with nanosecond timestamps; without them, v2 is read by more engines.
        props.put(TableProperties.FORMAT_VERSION, form == ViewForm.LONG ? "2" : "3");
        // A lost race is re-planned by this class from the new version, never re-applied blindly by Iceberg.
        props.put(TableProperties.COMMIT_NUM_RETRIES, "0");
        props.put(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true");
        props.put(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "100");
        props.put(TableProperties.MANIFEST_TARGET_SIZE_BYTES, MANIFEST_TARGET_BYTES);
        if (form == ViewForm.LONG) {
            // Spark's vectorized Iceberg reader refuses a TIMESTAMP(NANOS) column read as long; its row reader
            // reads it.
            props.put(TableProperties.PARQUET_VECTORIZATION_ENABLED, "false");
        }
        props.put("ourios.view", "derived from the store's manifests by ourios iceberg sync; never write to it");
        // Iceberg reassigns ids when it creates the table; the spec is rebuilt on the schema it keeps.
        return TableMetadata.newTableMetadata(schema, ViewSchema.spec(schema, form), SortOrder.unsorted(),
                view.tableUri(), props);
    }

    /** Adds every extra column the new files bring; refuses a column whose type differs from the table's. */
    private List<String> evolveSchema(Transaction txn, List<FileFooterFacts> footers) {
        Schema schema = txn.table().schema();
        SortedMap<String, Type> adds = new TreeMap<>();
        for (FileFooterFacts f : footers) {
            for (Map.Entry<String, PrimitiveType> e : LogSchema.extrasOf(f.metadata().getFileMetaData().getSchema())
                    .entrySet()) {
                String name = e.getKey();
                Optional<Type> type = ViewSchema.icebergType(e.getValue(), form);
                if (type.isEmpty()) {
                    LOG.warn("{}: column '{}' ({}) has no Iceberg type that reads its values unchanged; it is not in "
                            + "the Iceberg view", store.describe(f.key()), name, e.getValue());
                    continue;
                }
                NestedField known = schema.findField(name);
                Type expected = known != null ? known.type() : adds.get(name);
                if (expected != null && !expected.equals(type.get())) {
                    throw new IllegalArgumentException(store.describe(f.key()) + ": column '" + name + "' is "
                            + type.get() + " but the Iceberg view has it as " + expected
                            + "; the view is not synced past a conflicting column type");
                }
                if (expected == null) {
                    adds.put(name, type.get());
                }
            }
        }
        if (!adds.isEmpty()) {
            UpdateSchema update = txn.updateSchema();
            adds.forEach((name, type) -> update.addColumn(null, name, type));
            update.commit();
        }
        return List.copyOf(adds.keySet());
    }

    /**
     * Files whose {@code template_id} is {@code INT(64, unsigned)} (the reference implementation's files) are referenced like
     * every live file, but Iceberg readers refuse them rather than misread them; compaction rewrites them signed.
     */
    private void warnIfUnreadable(FileFooterFacts f) {
        org.apache.parquet.schema.MessageType schema = f.metadata().getFileMetaData().getSchema();
        if (schema.containsField(dev.ourios.core.Columns.TEMPLATE_ID)
                && schema.getType(dev.ourios.core.Columns.TEMPLATE_ID).getLogicalTypeAnnotation()
                        instanceof org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation i
                && !i.isSigned()) {
            LOG.warn("{}: template_id is an unsigned 64-bit column, which Iceberg readers refuse; compacting the "
                    + "partition rewrites it in the signed form", store.describe(f.key()));
        }
    }

    /** A data file's entry: an hour partition's under the hour spec, a day partition's under the day spec. */
    private DataFile dataFile(FileFooterFacts f, StoreLiveSet.LiveFile live, Schema schema, PartitionSpec hourSpec,
            Optional<PartitionSpec> daySpec) {
        PartitionSpec spec = live.isDayFile() ? daySpec.orElseThrow() : hourSpec;
        PartitionData values = live.isDayFile() ? ViewPartitions.dayValue(spec, live.day().get())
                : ViewPartitions.value(spec, live.partition());
        return DataFiles.builder(spec)
                .withPath(view.location().uri(f.key()))
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(f.size())
                .withPartition(values)
                .withMetrics(FileMetricsMapper.metrics(f, schema))
                .build();
    }

    private List<FileFooterFacts> readFooters(List<StoreLiveSet.LiveFile> files) throws IOException {
        if (files.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(FOOTER_THREADS, files.size()), r -> {
            Thread t = new Thread(r, "iceberg-footers");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<FileFooterFacts>> futures = new ArrayList<>();
            for (StoreLiveSet.LiveFile f : files) {
                futures.add(pool.submit(() -> FileFooterFacts.read(store, f.object().key())));
            }
            List<FileFooterFacts> out = new ArrayList<>();
            for (Future<FileFooterFacts> fu : futures) {
                out.add(fu.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading footers", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw new UncheckedIOException(new IOException(c));
        } finally {
            pool.shutdownNow();
        }
    }
}
