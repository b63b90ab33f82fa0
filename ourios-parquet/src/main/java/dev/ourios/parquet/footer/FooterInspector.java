package dev.ourios.parquet.footer;

import dev.ourios.core.Columns;
import dev.ourios.parquet.LogFormatException;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.SortingColumn;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * Summarises a file's footer for {@code ourios inspect}. The footer is read once, raw, because sorting_columns is
 * visible only in the thrift structure (parquet-java's ParquetMetadata drops it); the rest is converted from it.
 */
public final class FooterInspector {
    private FooterInspector() {
    }

    public static FileFooter inspect(ObjectStore store, String key) throws IOException {
        String name = store.describe(key);
        try (RandomAccessInput in = store.openRandomAccess(key)) {
            FileMetaData raw = Footers.readRaw(in, name);
            ParquetMetadata md;
            try {
                // Round-trip through bytes: the converter consumes the thrift struct and we still need it.
                var bytes = new java.io.ByteArrayOutputStream();
                org.apache.parquet.format.Util.writeFileMetaData(raw, bytes);
                md = new ParquetMetadataConverter().readParquetMetadata(new ByteArrayInputStream(bytes.toByteArray()),
                        ParquetMetadataConverter.NO_FILTER);
            } catch (IOException | RuntimeException e) {
                throw new LogFormatException(name + ": unreadable Parquet footer (" + LogFormatException.reason(e)
                        + ")", e);
            } catch (StackOverflowError e) {
                // parquet-java builds the schema from the footer recursively; the stack is unwound here.
                throw new LogFormatException(name + ": unreadable Parquet footer (its schema is nested deeper than"
                        + " this reader's stack)");
            }
            MessageType schema = md.getFileMetaData().getSchema();
            String timeColumn = schema.containsField(Columns.EFFECTIVE_TIME) ? Columns.EFFECTIVE_TIME : Columns.TIME;
            List<String[]> leaves = schema.getPaths();
            List<FileFooter.RowGroup> groups = new ArrayList<>();
            for (int g = 0; g < md.getBlocks().size(); g++) {
                BlockMetaData b = md.getBlocks().get(g);
                Statistics<?> service = stats(b, Columns.SERVICE_NAME);
                Statistics<?> time = stats(b, timeColumn);
                List<String> sorting = new ArrayList<>();
                var rg = raw.getRow_groups().get(g);
                if (rg.isSetSorting_columns()) {
                    for (SortingColumn s : rg.getSorting_columns()) {
                        String col = s.getColumn_idx() < leaves.size()
                                ? String.join(".", leaves.get(s.getColumn_idx())) : "#" + s.getColumn_idx();
                        sorting.add(col + (s.isDescending() ? " DESC" : " ASC")
                                + (s.isNulls_first() ? " NULLS FIRST" : " NULLS LAST"));
                    }
                }
                List<String> blooms = new ArrayList<>();
                List<String> codecs = new ArrayList<>();
                for (ColumnChunkMetaData c : b.getColumns()) {
                    if (!codecs.contains(c.getCodec().name())) {
                        codecs.add(c.getCodec().name());
                    }
                    if (c.getBloomFilterOffset() >= 0) {
                        blooms.add(c.getPath().toDotString());
                    }
                }
                groups.add(new FileFooter.RowGroup(b.getRowCount(), b.getCompressedSize(), b.getTotalByteSize(),
                        hasRange(service) ? ((Binary) service.genericGetMin()).toStringUsingUTF8() : null,
                        hasRange(service) ? ((Binary) service.genericGetMax()).toStringUsingUTF8() : null,
                        hasRange(time) ? (Long) time.genericGetMin() : null,
                        hasRange(time) ? (Long) time.genericGetMax() : null,
                        List.copyOf(sorting), List.copyOf(blooms), List.copyOf(codecs)));
            }
            long rows = md.getBlocks().stream().mapToLong(BlockMetaData::getRowCount).sum();
            return new FileFooter(name, in.length(), schema.toString(), rows, md.getFileMetaData().getCreatedBy(),
                    timeColumn, List.copyOf(groups));
        }
    }

    private static boolean hasRange(Statistics<?> s) {
        return s != null && s.hasNonNullValue();
    }

    /** Statistics of a top-level column, matched by its single-element path (the name may contain dots). */
    private static Statistics<?> stats(BlockMetaData b, String column) {
        for (ColumnChunkMetaData c : b.getColumns()) {
            String[] p = c.getPath().toArray();
            if (p.length == 1 && p[0].equals(column)) {
                return c.getStatistics();
            }
        }
        return null;
    }
}
