package dev.ourios.bench.soak;

import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import java.util.AbstractCollection;
import java.util.Iterator;
import java.util.function.Supplier;

/**
 * One generated file's rows as a collection the ingest writer can stream (never held in memory at once), adding
 * every row it hands out to a checksum: the digest is of exactly the rows given to the writer. Iterating twice
 * would count rows twice; the end-of-run check would then report a mismatch rather than hide it.
 */
final class TappedRows extends AbstractCollection<LogRecord> {
    private final Supplier<Iterator<LogRecord>> rows;
    private final int size;
    private final RowChecksum checksum = new RowChecksum();

    TappedRows(Supplier<Iterator<LogRecord>> rows, int size) {
        this.rows = rows;
        this.size = size;
    }

    @Override
    public Iterator<LogRecord> iterator() {
        Iterator<LogRecord> it = rows.get();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public LogRecord next() {
                LogRecord r = it.next();
                checksum.add(r);
                return r;
            }
        };
    }

    @Override
    public int size() {
        return size;
    }

    Digest digest() {
        return Digest.parse(checksum.value());
    }
}
