package dev.ourios.parquet.write;

import dev.ourios.core.Columns;
import dev.ourios.parquet.footer.Footers;
import dev.ourios.parquet.index.TokenIndexRegion;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.KeyValue;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SortingColumn;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.format.Util;
import org.apache.parquet.schema.MessageType;

/**
 * The footer rewrite every written file goes through (the raw footer of a file is read by
 * {@link Footers}).
 *
 * <p>parquet-java 1.18.1 cannot write {@code sorting_columns} and fills each column chunk's {@code encodings} from a
 * HashSet of enum constants, whose iteration order follows identity hash codes and so changes between JVM processes.
 * Rewriting the footer fixes both without touching anything before it: pages, indexes and bloom filters are
 * referenced by absolute offsets that all lie before the footer.
 */
final class FooterRewrite {
    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

    private FooterRewrite() {
    }

    /** A rewritten footer: the held tail's bytes before {@code footerStart} stay, {@code footer} replaces the rest. */
    record NewFooter(int footerStart, byte[] footer) {
    }

    /**
     * Rewrites the footer at the end of a just-written file's held tail ({@code tail[0, length)}): sorts the
     * set-derived lists, sets computed chunk statistics, and declares sorting when asked. Returns where the old
     * footer starts in the tail and the new footer (thrift bytes, their length and "PAR1"); the bytes before it
     * (indexes, bloom filters) are kept as they are and never copied.
     */
    static NewFooter rewriteTail(byte[] tail, int length, MessageType schema, boolean declareSorting,
            List<ChunkStats.Group> chunkStats) throws IOException {
        return rewriteTail(tail, length, schema, declareSorting, chunkStats, null);
    }

    /**
     * As above; {@code tokenIndex}, when not null, gives the token index descriptor for a region written where the
     * old footer started (its argument: that position in the tail), which the new footer names under
     * {@link TokenIndexRegion#KEY}.
     */
    static NewFooter rewriteTail(byte[] tail, int length, MessageType schema, boolean declareSorting,
            List<ChunkStats.Group> chunkStats, IntFunction<String> tokenIndex) throws IOException {
        if (length < 8) {
            throw new IOException("held tail too short for a footer: " + length + " bytes");
        }
        int footerLen = Footers.footerLength(tail, length - 8, "output");
        int footerStart = length - 8 - footerLen;
        if (footerStart < 0) {
            throw new IOException("footer (" + footerLen + " bytes) is larger than the held tail");
        }
        FileMetaData md = Util.readFileMetaData(new ByteArrayInputStream(tail, footerStart, footerLen));
        normalize(md);
        if (chunkStats != null) {
            setChunkStats(md, schema, chunkStats);
        }
        if (declareSorting) {
            declareSorting(md, schema);
        }
        if (tokenIndex != null) {
            md.addToKey_value_metadata(new KeyValue(TokenIndexRegion.KEY).setValue(tokenIndex.apply(footerStart)));
        }
        ByteArrayOutputStream footer = new ByteArrayOutputStream(footerLen + 256);
        Util.writeFileMetaData(md, footer);
        int n = footer.size();
        footer.write(new byte[] {(byte) n, (byte) (n >>> 8), (byte) (n >>> 16), (byte) (n >>> 24)});
        footer.write(MAGIC);
        return new NewFooter(footerStart, footer.toByteArray());
    }

    private static void normalize(FileMetaData md) {
        for (RowGroup rg : md.getRow_groups()) {
            for (ColumnChunk cc : rg.getColumns()) {
                ColumnMetaData cmd = cc.getMeta_data();
                if (cmd == null) {
                    continue;
                }
                List<org.apache.parquet.format.Encoding> encodings = new ArrayList<>(cmd.getEncodings());
                encodings.sort(Comparator.comparingInt(org.apache.parquet.format.Encoding::getValue));
                cmd.setEncodings(encodings);
                if (cmd.isSetEncoding_stats()) {
                    List<PageEncodingStats> stats = new ArrayList<>(cmd.getEncoding_stats());
                    stats.sort(Comparator.<PageEncodingStats>comparingInt(s -> s.getPage_type().getValue())
                            .thenComparingInt(s -> s.getEncoding().getValue()));
                    cmd.setEncoding_stats(stats);
                }
            }
        }
    }

    /** The columns whose statistics {@link ChunkStats} computes, in its slot order. */
    static final List<String> CHUNK_STATS_ONLY = List.of(Columns.ATTRIBUTES, Columns.RESOURCE_ATTRIBUTES,
            Columns.BODY);

    private static void setChunkStats(FileMetaData md, MessageType schema, List<ChunkStats.Group> groups)
            throws IOException {
        if (groups.size() != md.getRow_groups().size()) {
            throw new IOException("BUG: " + groups.size() + " statistics groups for " + md.getRow_groups().size()
                    + " row groups");
        }
        for (int g = 0; g < groups.size(); g++) {
            RowGroup rg = md.getRow_groups().get(g);
            ChunkStats.Group stats = groups.get(g);
            if (stats.rows != rg.getNum_rows()) {
                throw new IOException("BUG: statistics of " + stats.rows + " rows for a row group of "
                        + rg.getNum_rows());
            }
            for (int slot = 0; slot < CHUNK_STATS_ONLY.size(); slot++) {
                int leaf = leafIndex(schema, CHUNK_STATS_ONLY.get(slot));
                Statistics s = new Statistics();
                s.setNull_count(stats.nulls[slot]);
                byte[] min = stats.min[slot];
                byte[] max = stats.max[slot];
                if (min != null && min.length <= ChunkStats.MAX_STATS_BYTES && max.length <= ChunkStats.MAX_STATS_BYTES) {
                    s.setMin_value(min);
                    s.setMax_value(max);
                }
                rg.getColumns().get(leaf).getMeta_data().setStatistics(s);
            }
        }
    }

    private static void declareSorting(FileMetaData md, MessageType schema) {
        int service = leafIndex(schema, Columns.SERVICE_NAME);
        int effective = leafIndex(schema, Columns.EFFECTIVE_TIME);
        for (RowGroup rg : md.getRow_groups()) {
            // SortingColumn(column_idx, descending, nulls_first)
            rg.setSorting_columns(List.of(new SortingColumn(service, false, true),
                    new SortingColumn(effective, false, false)));
        }
    }

    /** Index of a top-level primitive column among the schema's leaves (what SortingColumn.column_idx counts). */
    static int leafIndex(MessageType schema, String topLevel) {
        List<String[]> paths = schema.getPaths();
        for (int i = 0; i < paths.size(); i++) {
            if (paths.get(i).length == 1 && paths.get(i)[0].equals(topLevel)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no column '" + topLevel + "' in the schema");
    }
}
