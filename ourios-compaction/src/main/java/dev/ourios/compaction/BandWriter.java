package dev.ourios.compaction;

import dev.ourios.core.FileNames;
import dev.ourios.core.LogRecord;
import dev.ourios.core.PartitionKey;
import dev.ourios.core.Uuid7;
import dev.ourios.parquet.rows.RowCursor;
import dev.ourios.parquet.rows.StringTable;
import dev.ourios.parquet.write.LogFileWriter;
import dev.ourios.parquet.write.WriterOptions;
import dev.ourios.parquet.write.WrittenFile;
import dev.ourios.store.ObjectStore;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one sorted row stream as a band of compacted files of at most {@code maxFileBytes} each
 * (docs/spec/storage.md, "The size band"). A file ends only at a row-group boundary: after each row group, when
 * {@code written bytes + next group + closing bytes(groups + 1)} would pass the bound, or the balanced cut says the
 * file has its share of the band ({@link #balancedCutDue}), the file is closed before the
 * first later row whose (service, effective time) differs from the last row written, so one key's rows never span two
 * files and the files' key ranges are disjoint and ordered. The next group is taken as 1.25 times the row-group
 * threshold, or the largest group this band has written when that is larger. Every decision depends only on the
 * rows and the settings, so the band is byte-identical wherever and however it is written.
 *
 * <p>Each file is published (invisible: no manifest names it) as soon as it is finished; {@link #abort} aborts the
 * open file and deletes the published ones, best effort (a file left behind is an orphan for GC).
 */
final class BandWriter implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(BandWriter.class);

    /** One published file of the band. */
    record BandFile(String key, String name, long rows, long bytes, int rowGroups) {
    }

    private final ObjectStore store;
    private final PartitionKey partition;
    private final String outputPrefix;
    private final Uuid7 uuids;
    private final WriterOptions options;
    private final long maxFileBytes;
    /** The rows the band will hold, for the balanced cut ({@link #balancedCutDue}); 0: no balanced cut. */
    private final long plannedRows;
    /** Data bytes (their row groups'), row groups and rows of the band's finished files. */
    private long finishedData;
    private int finishedGroups;
    private long finishedRows;
    /** Where each file's token index collects until its footer (the rewrite's scratch directory). */
    private final Path scratch;
    private final List<BandFile> published = new ArrayList<>();
    private final RowCursor cursor = new RowCursor();

    private LogFileWriter writer;
    private String key;
    private String name;
    private int groupsSeen;
    /** Bytes of the open file at the end of its last row group seen. */
    private long writtenSeen;
    private long largestGroup;
    private boolean committed;
    /** A cut is due: the file ends before the next row of another key than {@link #lastService}/{@link #lastTime}. */
    private boolean cutDue;
    private String lastService;
    private long lastTime;

    /** A writer whose files go into {@code outputPrefix} (an hour's directory, or a rollup's day partition). */
    BandWriter(ObjectStore store, PartitionKey partition, String outputPrefix, Uuid7 uuids, WriterOptions options,
            long maxFileBytes, long plannedRows, Path scratch) {
        this.store = store;
        this.partition = partition;
        this.outputPrefix = outputPrefix;
        this.uuids = uuids;
        this.options = options;
        this.maxFileBytes = maxFileBytes;
        this.plannedRows = plannedRows;
        this.scratch = scratch;
    }

    /** Appends one encoded row (see {@link LogFileWriter#write(byte[], int, int, StringTable)}). */
    void write(byte[] buf, int offset, int length, StringTable strings) throws IOException {
        if (cutDue) {
            cursor.reset(buf, offset, strings);
            String service = cursor.string();
            long time = cursor.i64();
            cutIfKeyChanged(service, time);
        }
        LogFileWriter w = open();
        w.write(buf, offset, length, strings);
        if (w.rowGroupsWritten() != groupsSeen && !cutDue && wouldPass(w)) {
            cursor.reset(buf, offset, strings);
            dueAfter(cursor.string(), cursor.i64());
        }
    }

    /** Appends one record (the row-fault test point's path; the same decisions as for encoded rows). */
    void write(LogRecord r) throws IOException {
        if (cutDue) {
            cutIfKeyChanged(r.serviceName(), r.effectiveTime());
        }
        LogFileWriter w = open();
        w.write(r);
        if (w.rowGroupsWritten() != groupsSeen && !cutDue && wouldPass(w)) {
            dueAfter(r.serviceName(), r.effectiveTime());
        }
    }

    /**
     * At a row-group boundary just crossed: true when the file cannot take one more group and stay within the bound.
     * Also records the group's size.
     */
    private boolean wouldPass(LogFileWriter w) {
        int groups = w.rowGroupsWritten();
        long written = w.writtenBytes();
        largestGroup = Math.max(largestGroup, written - writtenSeen);
        groupsSeen = groups;
        writtenSeen = written;
        long nextGroup = Math.max(options.rowGroupBytes() + options.rowGroupBytes() / 4, largestGroup);
        return written + nextGroup + w.closingBytesBound(groups + 1, nextGroup) > maxFileBytes
                || balancedCutDue(w, written, groups, nextGroup);
    }

    /**
     * The balanced cut (docs/spec/storage.md, "The size band"): the data bytes from this file's start to the band's
     * end, estimated from the rows still to come at the band's bytes per row so far, need
     * {@code n = ceil(estimate / capacity)} files, where the capacity is the data a file holds before the bound's
     * test ends it; with two or more, this file ends at the group boundary nearest {@code estimate / n}. So the
     * band's files come out about equal, never full files and a small last one.
     */
    private boolean balancedCutDue(LogFileWriter w, long written, int groups, long nextGroup) {
        long bandRows = finishedRows + w.rows();
        long bandGroups = finishedGroups + groups;
        if (plannedRows <= bandRows || bandGroups == 0) {
            return false;
        }
        long bandData = finishedData + written;
        double rest = written + (plannedRows - bandRows) * ((double) bandData / bandRows);
        long group = Math.max(1, bandData / bandGroups);
        double files = Math.ceil(rest / capacity(w, group, nextGroup));
        // Ends at the group boundary nearest the share: past it by less than half a group, or short of it by less.
        return files >= 2 && written + group / 2 >= rest / files;
    }

    /**
     * The data bytes of a file of groups of {@code group} bytes once the bound's test ends it: the most groups
     * {@code g} for which {@code g x group + next group + closing bytes(g + 1)} stays within the bound, plus the group
     * the test lets in after them.
     */
    private long capacity(LogFileWriter w, long group, long nextGroup) {
        long lo = 0;
        long hi = Math.min(Integer.MAX_VALUE - 1, maxFileBytes / group + 1);
        while (lo < hi) {
            long mid = (lo + hi + 1) >>> 1;
            if (mid * group + nextGroup + w.closingBytesBound((int) mid + 1, nextGroup) <= maxFileBytes) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return (lo + 1) * group;
    }

    private void dueAfter(String service, long time) {
        cutDue = true;
        lastService = service;
        lastTime = time;
    }

    private void cutIfKeyChanged(String service, long time) throws IOException {
        if (time != lastTime || !Objects.equals(service, lastService)) {
            finishFile();
        }
    }

    private LogFileWriter open() throws IOException {
        if (writer == null) {
            name = uuids.next() + FileNames.COMPACTED;
            key = outputPrefix + name;
            writer = new LogFileWriter(store.create(key), options, scratch);
            groupsSeen = 0;
            writtenSeen = 0;
            cutDue = false;
        }
        return writer;
    }

    private void finishFile() throws IOException {
        long before = writer.writtenBytes();
        int groupsBefore = writer.rowGroupsWritten();
        WrittenFile f = writer.commit();
        writer = null;
        if (f.rowGroups() > groupsBefore) {
            // The last group, flushed by the commit: its bytes count towards the largest group too.
            largestGroup = Math.max(largestGroup, groupBytes(f, groupsBefore, before));
        }
        published.add(new BandFile(key, name, f.rows(), f.bytes(), f.rowGroups()));
        for (var block : f.footer().getBlocks()) {
            finishedData += block.getCompressedSize();
        }
        finishedGroups += f.rowGroups();
        finishedRows += f.rows();
        LOG.debug("{}: band file {} of {} rows, {} bytes, {} row groups", partition, name, f.rows(), f.bytes(),
                f.rowGroups());
    }

    /** Bytes of the groups from {@code fromGroup} on, from the footer's block sizes. */
    private static long groupBytes(WrittenFile f, int fromGroup, long fallback) {
        long largest = 0;
        for (int i = fromGroup; i < f.footer().getBlocks().size(); i++) {
            largest = Math.max(largest, f.footer().getBlocks().get(i).getCompressedSize());
        }
        return largest > 0 ? largest : fallback;
    }

    /**
     * Finishes the open file and returns every file of the band in key order. A band of no row writes one empty file,
     * as a one-file output would.
     */
    List<BandFile> commit() throws IOException {
        open();
        finishFile();
        committed = true;
        return List.copyOf(published);
    }

    /** Aborts the open file and deletes the published ones, best effort; idempotent. */
    void abort() {
        if (writer != null) {
            writer.abort();
            writer = null;
        }
        for (BandFile f : published) {
            try {
                store.delete(f.key());
            } catch (IOException | RuntimeException e) {
                LOG.debug("{}: band file {} not deleted ({}); an orphan for GC", partition, f.name(), e.toString());
            }
        }
        published.clear();
    }

    /** Aborts unless {@link #commit} ran. */
    @Override
    public void close() {
        if (!committed) {
            abort();
        }
    }
}
