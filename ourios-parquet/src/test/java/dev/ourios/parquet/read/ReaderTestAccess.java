package dev.ourios.parquet.read;

import dev.ourios.store.ObjectStore;
import java.io.IOException;

/** The reader's package-private seams, for the tests of the other packages (the writers' differential tests). */
public final class ReaderTestAccess {
    private ReaderTestAccess() {
    }

    /** Opens {@code key} read through parquet-java's record reader only: the reference our decoding is held to. */
    public static LogFileReader openWithRecordReader(ObjectStore store, String key, ReadOptions options)
            throws IOException {
        return LogFileReader.openWithRecordReader(store, key, options);
    }

    /** True when {@code reader} decodes rows with our column cursors rather than parquet-java's record reader. */
    public static boolean decodesColumns(LogFileReader reader) {
        return reader.decodesColumns();
    }
}
