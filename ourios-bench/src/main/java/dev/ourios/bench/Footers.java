package dev.ourios.bench;

import dev.ourios.parquet.read.LogFileReader;
import dev.ourios.parquet.read.ReadOptions;
import dev.ourios.store.ObjectStore;
import java.io.IOException;

/** Footer facts of one file (rows, row groups) read through the product's reader: no row is decoded. */
final class Footers {
    private Footers() {
    }

    static long rows(ObjectStore store, String key) throws IOException {
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all())) {
            return r.rowCount();
        }
    }

    static int rowGroups(ObjectStore store, String key) throws IOException {
        try (LogFileReader r = LogFileReader.open(store, key, ReadOptions.all())) {
            return r.rowGroupsTotal();
        }
    }
}
