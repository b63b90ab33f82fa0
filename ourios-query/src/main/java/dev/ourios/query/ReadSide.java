package dev.ourios.query;

import dev.ourios.store.ObjectStore;
import dev.ourios.store.QuietListings;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;

/**
 * The read side of a long-running process (queries, live files, store figures) over one store: its layout and
 * table reader share one view of the store that keeps the listing of each local directory whose entries have not
 * changed ({@link QuietListings}), so repeated queries over sealed partitions cost one stat per directory rather
 * than a listing. Only readers of complete objects may use it; writers, compaction and garbage collection keep the
 * store itself.
 *
 * @param store  the view every reader here lists and reads through
 * @param layout the partitions of {@link #store}
 * @param tables the partitions' live sets over {@link #store}
 */
public record ReadSide(ObjectStore store, TableLayout layout, TableReader tables) {
    /** The read side over {@code store}, listings kept by {@link QuietListings#over}. */
    public static ReadSide over(ObjectStore store) {
        ObjectStore reads = QuietListings.over(store);
        return new ReadSide(reads, new TableLayout(reads), new TableReader(reads, new ManifestCodec()));
    }

    /** A query engine of this read side, with the default threads and caches. */
    public QueryEngine queryEngine(MeterProvider meterProvider) {
        return new QueryEngine(store, layout, tables, meterProvider);
    }

    /** The live files of this read side. */
    public LiveFiles liveFiles() {
        return new LiveFiles(store, layout, tables);
    }
}
