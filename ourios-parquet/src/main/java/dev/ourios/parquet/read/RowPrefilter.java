package dev.ourios.parquet.read;

import dev.ourios.core.LogRecord;
import java.io.IOException;
import java.util.Set;

/**
 * An exact row predicate that needs only a few columns, so a reader can decide a row before decoding the rest of
 * it (late materialization): {@link LogFileReader} decodes {@link #columns()} of the candidate rows first and the
 * other columns only of the rows this keeps. A query over a compacted file keeps a handful of rows out of a row
 * group of ~200,000: decoding every column of every row would be almost all wasted.
 *
 * <p>The record {@link #test} sees is partial: the columns outside {@link #columns()} read as absent (null, 0,
 * empty lists; REQUIRED strings as empty strings). A predicate must not look at them. Whatever the reader's path
 * (files it cannot decode by columns get the whole record), every row the filter2 pruning leaves is tested
 * exactly once, in file order, and only kept rows are returned.
 */
public interface RowPrefilter {
    /** The top-level column names {@link #test} reads (missing from a file: they read as absent, as usual). */
    Set<String> columns();

    /**
     * Whether row {@code rowIndex} (its position in the file) is returned; may throw to fail the read (a row that
     * breaks an invariant, such as another tenant's row).
     */
    boolean test(LogRecord partial, long rowIndex) throws IOException;
}
