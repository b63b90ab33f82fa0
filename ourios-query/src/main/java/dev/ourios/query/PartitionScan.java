package dev.ourios.query;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.LogFileReader;
import dev.ourios.parquet.PartitionMismatchException;
import dev.ourios.parquet.ReadOptions;
import dev.ourios.parquet.RowPrefilter;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionSnapshot;
import dev.ourios.table.TableReader;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one hour partition of a query: resolves its live set, opens every live file with the pushdown predicate,
 * checks and matches every row the pruning leaves (on the query's columns first, see {@link #prefilter}), and keeps
 * the partition's first rows in the query's order.
 *
 * <p>A planned file can vanish before it is read: a compaction committed and GC collected its retired inputs
 * after the grace period. The partition is then re-resolved once and read again from scratch (its rows so far are
 * dropped, so nothing is returned twice); a second disappearance fails the query (STORAGE.md §4).
 */
final class PartitionScan {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionScan.class);
    private static final int ATTEMPTS = 2;

    private final ObjectStore store;
    private final TableReader tables;
    private final Query query;
    private final RowMatcher matcher;
    private final ScanCounters counters;
    private final PlanHook hook;
    private final Optional<FilterPredicate> predicate;
    private final Optional<FilterPredicate> predicateWithoutService;

    PartitionScan(ObjectStore store, TableReader tables, Query query, ScanCounters counters, PlanHook hook) {
        this.store = store;
        this.tables = tables;
        this.query = query;
        this.matcher = new RowMatcher(query);
        this.counters = counters;
        this.hook = hook;
        this.predicate = Pushdown.of(query, true);
        this.predicateWithoutService = Pushdown.of(query, false);
    }

    /** The partition's first {@code keep} matching rows, in the query's order. */
    List<Hit> scan(PartitionKey partition, long keep) throws IOException {
        counters.partitions++;
        for (int attempt = 1; ; attempt++) {
            PartitionSnapshot snapshot = tables.snapshot(partition);
            hook.planned(snapshot, attempt);
            try {
                return read(snapshot, keep);
            } catch (IOException e) {
                Optional<NoSuchObjectException> gone = vanished(e);
                if (gone.isEmpty()) {
                    throw e;
                }
                if (attempt >= ATTEMPTS) {
                    throw new IOException("a planned file of " + partition + " vanished again after the partition was "
                            + "re-resolved: " + gone.get().getMessage(), e);
                }
                LOG.info("{}: a planned file vanished ({}); re-resolving the partition once", partition,
                        gone.get().getMessage());
            }
        }
    }

    private List<Hit> read(PartitionSnapshot snapshot, long keep) throws IOException {
        TopRows top = new TopRows(Hit.order(query.order()), keep);
        List<ObjectInfo> live = snapshot.live(); // sorted by key: the file ordinal of the tie-break
        for (int f = 0; f < live.size(); f++) {
            readFile(snapshot.partition(), live.get(f).key(), f, top);
        }
        return top.sorted();
    }

    private void readFile(PartitionKey partition, String key, int fileOrdinal, TopRows top) throws IOException {
        RowPrefilter rows = prefilter(partition, store.describe(key));
        LogFileReader reader = open(key, predicate, rows);
        if (query.service().isPresent() && !reader.fileSchema().containsField(Columns.SERVICE_NAME)) {
            // An older file without the promoted column: the service predicate would prune it whole.
            counters.addAbandoned(reader);
            reader.close();
            reader = open(key, predicateWithoutService, rows);
        }
        try (LogFileReader r = reader) {
            long row = 0;
            for (LogRecord rec = r.read(); rec != null; rec = r.read(), row++) {
                if (matcher.matchesText(rec)) { // the prefilter decided all but the body substring
                    top.add(new Hit(RowTime.of(rec), fileOrdinal, row, rec));
                }
            }
        } finally {
            counters.addFile(reader);
        }
    }

    private LogFileReader open(String key, Optional<FilterPredicate> filter, RowPrefilter rows) throws IOException {
        return LogFileReader.open(store, key, new ReadOptions(Optional.empty(), filter, Optional.of(rows)));
    }

    /**
     * Every row the pruning leaves is checked (tenant, partition) and matched on the query's columns before the
     * reader decodes the rest of it (late materialization); the body substring, if any, is matched on whole rows.
     */
    private RowPrefilter prefilter(PartitionKey partition, String file) {
        return new CheckedPrefilter(file, partition, query.tenant(), matcher);
    }

    /** Tenant isolation first (its own error, never a silent drop), then the row-vs-path rule, then the query. */
    private static final class CheckedPrefilter implements RowPrefilter {
        private final String file;
        private final PartitionKey partition;
        private final PartitionKey.Rows rows;
        private final String tenant;
        private final RowMatcher matcher;
        private final Set<String> columns;

        CheckedPrefilter(String file, PartitionKey partition, String tenant, RowMatcher matcher) {
            this.file = file;
            this.partition = partition;
            this.rows = partition.rows();
            this.tenant = tenant;
            this.matcher = matcher;
            this.columns = matcher.columnsExceptText();
        }

        @Override
        public Set<String> columns() {
            return columns;
        }

        @Override
        public boolean test(LogRecord partial, long rowIndex) throws IOException {
            if (!rows.holds(partial.tenantId(), partial.effectiveTime())) { // one comparison of each on the happy path
                if (!partial.tenantId().equals(tenant)) {
                    throw new TenantMismatchException(file, tenant, partial.tenantId());
                }
                throw new PartitionMismatchException(file, rowIndex, partition, partial.partitionKey());
            }
            return matcher.matchesExceptText(partial);
        }
    }

    /** The NoSuchObjectException behind e, if e means "a file is gone" (directly or wrapped by the reader). */
    private static Optional<NoSuchObjectException> vanished(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof NoSuchObjectException n) {
                return Optional.of(n);
            }
        }
        return Optional.empty();
    }
}
