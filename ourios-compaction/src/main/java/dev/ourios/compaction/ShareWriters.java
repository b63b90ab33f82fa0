package dev.ourios.compaction;

import dev.ourios.compaction.share.ShareKey;
import dev.ourios.compaction.share.Shares;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.parquet.rows.RowCursor;
import dev.ourios.parquet.rows.StringTable;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.store.ObjectStore;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one worker's sorted rows as its shares' bands (docs/spec/storage.md, "Shares of a large rewrite"): each
 * share is a {@link BandWriter} of its own, planned with the share's rows, so a file never spans two shares; the next
 * share starts at the first row whose key reaches its cut. A share without rows writes no file. {@link #abort}
 * deletes every file written, finished shares' included.
 */
final class ShareWriters implements Closeable {
    /** What a band writer of one share is made from, apart from the share's rows. */
    interface BandFactory {
        BandWriter open(long plannedRows);
    }

    private final Shares shares;
    private final Shares.Group group;
    /** Rows of each share of the group, in share order. */
    private final long[] shareRows;
    private final BandFactory bands;
    private final List<BandWriter> finished = new ArrayList<>();
    private final List<BandWriter.BandFile> files = new ArrayList<>();
    private final RowCursor cursor = new RowCursor();
    private final boolean split;
    private int share;
    private BandWriter open;
    private boolean committed;

    ShareWriters(Shares shares, Shares.Group group, long[] shareRows, BandFactory bands) {
        this.shares = shares;
        this.group = group;
        this.shareRows = shareRows.clone();
        this.bands = bands;
        this.split = shares.count() > 1;
        this.share = group.from();
    }

    /** The band writer of one share's files, from what a rewrite writes with. */
    static BandFactory bands(ObjectStore store, PartitionKey partition, String outputPrefix, Uuid7 uuids,
            WriterOptions options, long maxFileBytes, Path scratch) {
        return rows -> new BandWriter(store, partition, outputPrefix, uuids, options, maxFileBytes, rows, scratch);
    }

    /** Appends one encoded row of this worker's shares, in sort order. */
    void write(byte[] buf, int offset, int length, StringTable strings) throws IOException {
        if (split) {
            cursor.reset(buf, offset, strings);
            String service = cursor.string();
            advanceTo(service, cursor.i64());
        }
        writer().write(buf, offset, length, strings);
    }

    /** Appends one record (the row-fault test point's path). */
    void write(LogRecord r) throws IOException {
        if (split) {
            advanceTo(r.serviceName(), r.effectiveTime());
        }
        writer().write(r);
    }

    /** Finishes the share before the first share whose cut the key reaches. */
    private void advanceTo(String service, long time) throws IOException {
        while (share + 1 < group.to() && reaches(service, time, shares.cut(share + 1))) {
            finishShare();
            share++;
        }
    }

    private static boolean reaches(String service, long time, ShareKey cut) {
        return ShareKey.compare(service, time, cut.service(), cut.time()) >= 0;
    }

    private BandWriter writer() {
        if (open == null) {
            open = bands.open(shareRows[share - group.from()]);
        }
        return open;
    }

    private void finishShare() throws IOException {
        if (open != null) {
            BandWriter w = open;
            open = null;
            finished.add(w);
            files.addAll(w.commit());
        }
    }

    /** Finishes the last share; returns every file written, in key order (none when no row was written). */
    List<BandWriter.BandFile> commit() throws IOException {
        finishShare();
        committed = true;
        return List.copyOf(files);
    }

    /** Aborts the open share and deletes every finished share's files, best effort; idempotent. */
    void abort() {
        if (open != null) {
            open.abort();
            open = null;
        }
        finished.forEach(BandWriter::abort);
        finished.clear();
        files.clear();
    }

    /** Aborts unless {@link #commit} ran. */
    @Override
    public void close() {
        if (!committed) {
            abort();
        }
    }
}
