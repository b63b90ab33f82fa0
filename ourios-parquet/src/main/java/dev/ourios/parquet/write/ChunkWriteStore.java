package dev.ourios.parquet.write;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.PageWriteStore;
import org.apache.parquet.schema.MessageType;

/**
 * One row group's {@link ChunkWriter}s for a column slice: what parquet-java's {@code ColumnWriteStoreV1} is to its
 * column writers. At each row's end every chunk whose open page reached the page size or the page row limit writes
 * it (pages end at row boundaries, as the Parquet format requires of repeated columns); {@link #flush} ends every
 * chunk. Page size, page row limit, dictionary limit and which columns get dictionaries and statistics come from the
 * same {@link ParquetProperties} as parquet-java's writers.
 */
final class ChunkWriteStore implements ColumnWriteStore {
    private final ChunkWriter[] chunks;
    private final Map<ColumnDescriptor, ChunkWriter> byColumn = new HashMap<>();
    private final long pageSize;
    private final int pageRows;
    /** Pages out for compression on helper threads, or null when the page writers compress them inline. */
    private final PrecompressedPages precompressed;

    ChunkWriteStore(MessageType schema, PageWriteStore pages, PrecompressedPages precompressed,
            ParquetProperties props) {
        this.precompressed = precompressed;
        List<ColumnDescriptor> columns = schema.getColumns();
        this.chunks = new ChunkWriter[columns.size()];
        for (int i = 0; i < chunks.length; i++) {
            ColumnDescriptor c = columns.get(i);
            chunks[i] = new ChunkWriter(c, pages.getPageWriter(c), precompressed, props.isDictionaryEnabled(c),
                    props.getDictionaryPageSizeThreshold(), props.getStatisticsEnabled(c));
            byColumn.put(c, chunks[i]);
        }
        this.pageSize = props.getPageSizeThreshold();
        this.pageRows = props.getPageRowCountLimit();
    }

    @Override
    public ColumnWriter getColumnWriter(ColumnDescriptor column) {
        ChunkWriter w = byColumn.get(column);
        if (w == null) {
            throw new IllegalArgumentException("column " + column + " is not in this slice");
        }
        return w;
    }

    @Override
    public void endRecord() {
        for (ChunkWriter c : chunks) {
            if (c.pageFull(pageSize, pageRows)) {
                c.writePage();
            }
        }
    }

    @Override
    public void flush() {
        for (ChunkWriter c : chunks) {
            c.writePage();
        }
        writeOutstandingPages();
        for (ChunkWriter c : chunks) {
            c.writeDictionary();
        }
    }

    /**
     * The open pages plus the compressed pages written, once every page out for compression is in: the size must be
     * what inline compression would give, because it decides where row groups end (and so the file's bytes). The row
     * group writer calls it with the column-writer helpers idle (it has waited for them), so reading this slice's
     * pages from its thread is safe: the helpers' last work happens-before that wait returns.
     */
    @Override
    public long getBufferedSize() {
        writeOutstandingPages();
        long total = 0;
        for (ChunkWriter c : chunks) {
            total += c.bufferedBytes();
        }
        return total;
    }

    @Override
    public long getAllocatedSize() {
        return getBufferedSize();
    }

    @Override
    public String memUsageString() {
        return "ChunkWriteStore: " + chunks.length + " columns, " + getBufferedSize() + " bytes buffered";
    }

    @Override
    public void close() {
    }

    private void writeOutstandingPages() {
        if (precompressed != null) {
            precompressed.writeAll();
        }
    }
}
