package dev.ourios.query;

import dev.ourios.core.FileNames;
import dev.ourios.store.ForwardingObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import dev.ourios.table.DayPartition;
import java.io.IOException;
import java.util.List;

/**
 * A store that runs an action in the gap between a query resolving a partition and reading its files, which is
 * otherwise a race no test could hit reliably: each listing of a directory is a resolution (a snapshot lists the
 * partition once), and the first data file opened after it runs the action before the open goes through; no other
 * open passes until the action is done, whichever thread makes it. The action changes the store through the
 * unwrapped one, so its own calls are not counted.
 */
final class GapStore extends ForwardingObjectStore {
    /** What runs in the gap. */
    @FunctionalInterface
    interface Action {
        /**
         * @param key        the data file about to be opened
         * @param resolution how many resolutions came so far (1 for the first)
         */
        void run(String key, int resolution) throws IOException;
    }

    private final Action action;
    private int resolutions;
    private boolean pending;

    GapStore(ObjectStore delegate, Action action) {
        super(delegate);
        this.action = action;
    }

    @Override
    public List<ObjectInfo> listObjects(String dirPrefix) throws IOException {
        List<ObjectInfo> listing = super.listObjects(dirPrefix);
        if (dirPrefix.endsWith("/" + DayPartition.DIRECTORY + "/")) {
            return listing; // the hour's day partition, listed with it: one resolution is the hour's listing
        }
        synchronized (this) {
            resolutions++;
            pending = true;
        }
        return listing;
    }

    @Override
    public RandomAccessInput openRandomAccess(String key) throws IOException {
        if (key.endsWith(FileNames.PARQUET)) {
            synchronized (this) {
                if (pending) {
                    pending = false;
                    action.run(key, resolutions);
                }
            }
        }
        return super.openRandomAccess(key);
    }
}
