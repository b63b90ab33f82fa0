package dev.ourios.iceberg;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types.NestedField;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Iceberg column metrics of one file from its footer: record count, and for every top-level column of the view
 * the value count, null count, compressed size and, where every row group has statistics, lower and upper bounds.
 * Engines prune files on these, so a bound is only written when it is certain: floating-point columns (NaN) and
 * values Iceberg would read differently from the stored ones get none, and long strings and binaries get none
 * (they would only bloat the manifests; bounds are optional in Iceberg).
 */
public final class FileMetricsMapper {
    /** Longest string or fixed value kept as a bound; longer ones leave the column without bounds. */
    static final int MAX_BOUND_BYTES = 128;

    private FileMetricsMapper() {
    }

    public static Metrics metrics(FileFooterFacts file, Schema schema) {
        Map<Integer, Long> sizes = new HashMap<>();
        Map<Integer, Long> values = new HashMap<>();
        Map<Integer, Long> nulls = new HashMap<>();
        Map<Integer, ByteBuffer> lower = new HashMap<>();
        Map<Integer, ByteBuffer> upper = new HashMap<>();
        for (NestedField field : schema.columns()) {
            if (!field.type().isPrimitiveType()) {
                continue;
            }
            ColumnPath path = ColumnPath.get(field.name());
            long size = 0;
            long count = 0;
            long nullCount = 0;
            boolean nullsKnown = true;
            boolean boundsKnown = true;
            boolean present = false;
            Object min = null;
            Object max = null;
            Comparator<Object> cmp = null;
            PrimitiveType ptype = null;
            for (BlockMetaData block : file.metadata().getBlocks()) {
                ColumnChunkMetaData chunk = find(block, path);
                if (chunk == null) {
                    // The column is absent from this file: every value reads as null.
                    count += block.getRowCount();
                    nullCount += block.getRowCount();
                    continue;
                }
                present = true;
                ptype = chunk.getPrimitiveType();
                size += chunk.getTotalSize();
                count += chunk.getValueCount();
                Statistics<?> st = chunk.getStatistics();
                if (st == null || st.isEmpty() || !st.isNumNullsSet()) {
                    nullsKnown = false;
                    boundsKnown = false;
                    continue;
                }
                nullCount += st.getNumNulls();
                if (!st.hasNonNullValue()) {
                    if (st.getNumNulls() < chunk.getValueCount()) {
                        // Values without a min/max (over 4 KiB, say): no bound of the file can be certain.
                        boundsKnown = false;
                    }
                    continue;
                }
                @SuppressWarnings("unchecked")
                Comparator<Object> c = (Comparator<Object>) (Comparator<?>) st.comparator();
                cmp = c;
                min = min == null || cmp.compare(st.genericGetMin(), min) < 0 ? st.genericGetMin() : min;
                max = max == null || cmp.compare(st.genericGetMax(), max) > 0 ? st.genericGetMax() : max;
            }
            int id = field.fieldId();
            if (present) {
                sizes.put(id, size);
            }
            values.put(id, count);
            if (nullsKnown) {
                nulls.put(id, nullCount);
            }
            if (boundsKnown && min != null && ptype != null) {
                ByteBuffer lo = bound(field.type(), ptype, min);
                ByteBuffer hi = bound(field.type(), ptype, max);
                if (lo != null && hi != null) {
                    lower.put(id, lo);
                    upper.put(id, hi);
                }
            }
        }
        return new Metrics(file.rows(), sizes, values, nulls, null, lower, upper);
    }

    private static ColumnChunkMetaData find(BlockMetaData block, ColumnPath path) {
        for (ColumnChunkMetaData c : block.getColumns()) {
            if (c.getPath().equals(path)) {
                return c;
            }
        }
        return null;
    }

    /** The Iceberg single-value serialisation of a Parquet statistic, or null when no certain bound exists. */
    private static ByteBuffer bound(Type type, PrimitiveType ptype, Object value) {
        switch (type.typeId()) {
            case STRING: {
                Binary b = (Binary) value;
                if (b.length() > MAX_BOUND_BYTES) {
                    return null;
                }
                return Conversions.toByteBuffer(type, StandardCharsets.UTF_8.decode(b.toByteBuffer()));
            }
            case FIXED: {
                Binary b = (Binary) value;
                return b.length() > MAX_BOUND_BYTES ? null : ByteBuffer.wrap(b.getBytes());
            }
            case INTEGER:
                return Conversions.toByteBuffer(type, value);
            case LONG: {
                if (value instanceof Integer i) {
                    // An unsigned 32-bit column: Iceberg readers widen the stored int, so values at or above 2^31
                    // would not read as their bound says; such files get no bounds.
                    boolean unsigned = ptype.getLogicalTypeAnnotation() instanceof IntLogicalTypeAnnotation a
                            && !a.isSigned();
                    if (unsigned && i < 0) {
                        return null;
                    }
                    return Conversions.toByteBuffer(type, (long) i);
                }
                return Conversions.toByteBuffer(type, value);
            }
            case TIMESTAMP:
                if (ptype.getLogicalTypeAnnotation() instanceof TimestampLogicalTypeAnnotation t
                        && t.getUnit() == LogicalTypeAnnotation.TimeUnit.MILLIS) {
                    // Iceberg reads millisecond timestamps as microseconds.
                    return Conversions.toByteBuffer(type, Math.multiplyExact((Long) value, 1000L));
                }
                return Conversions.toByteBuffer(type, value);
            case TIMESTAMP_NANO:
            case DATE:
            case BOOLEAN:
                return Conversions.toByteBuffer(type, value);
            default:
                return null;
        }
    }
}
