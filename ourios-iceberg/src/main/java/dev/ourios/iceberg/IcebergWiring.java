package dev.ourios.iceberg;

import dev.ourios.store.ObjectStore;
import dev.ourios.table.FileRetention;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.time.Clock;

/** Builds the view's objects for one store: the one place they are wired. */
public final class IcebergWiring {
    private IcebergWiring() {
    }

    /** The store's view, for a store opened from {@code storeUri} (a path, {@code file://} or {@code s3://}). */
    public static IcebergView view(ObjectStore store, String storeUri) {
        return new IcebergView(store, StoreLocation.of(storeUri), ViewLayout.DEFAULT);
    }

    /** The syncer of the view in its default form ({@link ViewForm#TIMESTAMP_NS}). */
    public static IcebergSync sync(ObjectStore store, IcebergView view, Clock clock) {
        return sync(store, view, clock, ViewForm.TIMESTAMP_NS);
    }

    public static IcebergSync sync(ObjectStore store, IcebergView view, Clock clock, ViewForm form) {
        return new IcebergSync(store, view, new StoreLiveSet(new TableLayout(store), new TableReader(store,
                new ManifestCodec())), clock, form);
    }

    /** What GC must keep for the view (nothing when the store has none). */
    public static FileRetention retention(IcebergView view, Clock clock) {
        return new IcebergRetention(view, clock);
    }
}
