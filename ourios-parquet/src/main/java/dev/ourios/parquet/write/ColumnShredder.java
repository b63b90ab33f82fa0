package dev.ourios.parquet.write;

import dev.ourios.parquet.LogSchema;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.values.bloomfilter.BloomFilterWriteStore;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Writes one row group's values of a column slice straight into parquet-java's {@link ColumnWriter}s, with the
 * repetition and definition levels computed here from the log schema's fixed shape. parquet-java's own record
 * consumer ({@code MessageColumnIO}) tracks every field of every group on every row to find the missing ones, a
 * large share of a write's cost on this schema; here the shape is known, so a row costs one call per value and one
 * pass over the optional columns at its end.
 *
 * <p>Fields are addressed by their top-level index in the full schema ({@link LogSchema}); calls for fields outside
 * {@code [from, to)} are ignored, so one write support can shred a whole row into either slice. Every row must give
 * each owned required field exactly one value; optional top-level fields left out of a row are written as nulls by
 * {@link #endRow}. The levels are those parquet-java's record consumer writes, so the bytes are the same.
 *
 * <p>Columns named by the {@link BloomPlan} get their bloom filters from here ({@link SplitBlockBloom}, same bits
 * as parquet-java's, which has them switched off); {@link #writeBloomFilters} hands them to the page store.
 */
final class ColumnShredder {
    private final int from;
    private final int to;
    private final ColumnWriteStore store;
    /** Per top-level field (full-schema index): the leaf's writer, or null for list fields and unowned fields. */
    private final ColumnWriter[] writers;
    private final boolean[] optional;
    /** The row number at which each top-level field last got a value. */
    private final long[] writtenAt;
    private final ColumnWriter paramTypeTag;
    private final ColumnWriter paramValue;
    private final ColumnWriter separator;
    /** Per top-level field: the bloom filter built here, or null. */
    private final SplitBlockBloom[] blooms;
    private final ColumnDescriptor[] descriptors;
    private long row;

    ColumnShredder(ColumnWriteStore store, MessageType sliceSchema, int from, BloomPlan bloomPlan) {
        this.from = from;
        this.to = from + sliceSchema.getFieldCount();
        this.store = store;
        this.writers = new ColumnWriter[to];
        this.optional = new boolean[to];
        this.writtenAt = new long[to];
        this.blooms = new SplitBlockBloom[to];
        this.descriptors = new ColumnDescriptor[to];
        ColumnWriter tag = null;
        ColumnWriter value = null;
        ColumnWriter sep = null;
        for (ColumnDescriptor d : sliceSchema.getColumns()) {
            String[] path = d.getPath();
            int index = from + sliceSchema.getFieldIndex(path[0]);
            ColumnWriter w = store.getColumnWriter(d);
            if (path.length == 1) {
                Type field = sliceSchema.getType(path[0]);
                expect(d.getMaxRepetitionLevel() == 0 && d.getMaxDefinitionLevel()
                        == (field.isRepetition(Type.Repetition.OPTIONAL) ? 1 : 0), d);
                writers[index] = w;
                optional[index] = d.getMaxDefinitionLevel() == 1;
                descriptors[index] = d;
                if (bloomPlan.bytes(path[0]) > 0) {
                    blooms[index] = new SplitBlockBloom(bloomPlan.bytes(path[0]));
                }
            } else if (String.join(".", path).equals(LogSchema.PARAMS_TYPE_TAG)) {
                expect(d.getMaxRepetitionLevel() == 1 && d.getMaxDefinitionLevel() == 1, d);
                tag = w;
            } else if (String.join(".", path).equals(LogSchema.PARAMS_VALUE)) {
                expect(d.getMaxRepetitionLevel() == 1 && d.getMaxDefinitionLevel() == 2, d);
                value = w;
            } else if (String.join(".", path).equals(LogSchema.SEPARATORS_ELEMENT)) {
                expect(d.getMaxRepetitionLevel() == 1 && d.getMaxDefinitionLevel() == 1, d);
                sep = w;
            } else {
                throw new IllegalArgumentException("not a log-schema column: " + d);
            }
        }
        this.paramTypeTag = tag;
        this.paramValue = value;
        this.separator = sep;
        this.row = 1; // writtenAt starts at 0: nothing is written yet
    }

    private static void expect(boolean shape, ColumnDescriptor d) {
        if (!shape) {
            throw new IllegalArgumentException("column " + d + " does not have the log schema's levels");
        }
    }

    /** Whether top-level field {@code index} belongs to this slice. */
    boolean owns(int index) {
        return index >= from && index < to;
    }

    void int64(int index, long v) {
        ColumnWriter w = writer(index);
        if (w != null) {
            w.write(v, 0, level(index));
            if (blooms[index] != null) {
                blooms[index].add(v);
            }
        }
    }

    void int32(int index, int v) {
        ColumnWriter w = writer(index);
        if (w != null) {
            w.write(v, 0, level(index));
        }
    }

    void float32(int index, float v) {
        ColumnWriter w = writer(index);
        if (w != null) {
            w.write(v, 0, level(index));
        }
    }

    void float64(int index, double v) {
        ColumnWriter w = writer(index);
        if (w != null) {
            w.write(v, 0, level(index));
        }
    }

    void bool(int index, boolean v) {
        ColumnWriter w = writer(index);
        if (w != null) {
            w.write(v, 0, level(index));
        }
    }

    void binary(int index, Binary v) {
        ColumnWriter w = writer(index);
        if (w != null) {
            w.write(v, 0, level(index));
            if (blooms[index] != null) {
                blooms[index].add(v);
            }
        }
    }

    /**
     * A binary value as a byte range ({@code constant}: the string-table entry's constant Binary for these bytes, or
     * null for bytes in a reused buffer): our column writers take the range as it is, parquet-java's get a Binary.
     */
    void binary(int index, byte[] a, int off, int len, Binary constant) {
        ColumnWriter w = writer(index);
        if (w != null) {
            if (w instanceof ChunkWriter cw) {
                cw.write(a, off, len, constant, 0, level(index));
            } else {
                w.write(constant != null ? constant : Binary.fromReusedByteArray(a, off, len), 0, level(index));
            }
            if (blooms[index] != null) {
                blooms[index].add(a, off, len, constant);
            }
        }
    }

    /**
     * The params list of the current row, {@code n} elements given one by one to {@link #param} after this call
     * (an empty list is written here).
     */
    void params(int n) {
        if (n == 0 && paramTypeTag != null) {
            paramTypeTag.writeNull(0, 0);
            paramValue.writeNull(0, 0);
        }
    }

    /** Element {@code ordinal} of the params list: {@code struct<type_tag, value>}, value null when absent. */
    void param(int ordinal, int typeTag, Binary value) {
        if (paramTypeTag == null) {
            return;
        }
        int r = ordinal == 0 ? 0 : 1;
        paramTypeTag.write(typeTag, r, 1);
        if (value != null) {
            paramValue.write(value, r, 2);
        } else {
            paramValue.writeNull(r, 1);
        }
    }

    /** The separators list of the current row, {@code n} elements given to {@link #separator} after this call. */
    void separators(int n) {
        if (n == 0 && separator != null) {
            separator.writeNull(0, 0);
        }
    }

    void separator(int ordinal, Binary value) {
        if (separator != null) {
            separator.write(value, ordinal == 0 ? 0 : 1, 1);
        }
    }

    /** {@link #separator(int, Binary)} for bytes in a reused buffer. */
    void separator(int ordinal, byte[] a, int off, int len) {
        if (separator instanceof ChunkWriter cw) {
            cw.write(a, off, len, null, ordinal == 0 ? 0 : 1, 1);
        } else if (separator != null) {
            separator.write(Binary.fromReusedByteArray(a, off, len), ordinal == 0 ? 0 : 1, 1);
        }
    }

    /** {@link #param(int, int, Binary)} for a value in a reused buffer ({@code a} null: no value). */
    void param(int ordinal, int typeTag, byte[] a, int off, int len) {
        if (paramTypeTag == null) {
            return;
        }
        int r = ordinal == 0 ? 0 : 1;
        paramTypeTag.write(typeTag, r, 1);
        if (a == null) {
            paramValue.writeNull(r, 1);
        } else if (paramValue instanceof ChunkWriter cw) {
            cw.write(a, off, len, null, r, 2);
        } else {
            paramValue.write(Binary.fromReusedByteArray(a, off, len), r, 2);
        }
    }

    /** Ends the row: optional fields it left out get their null, then the store counts the row. */
    void endRow() {
        for (int i = from; i < to; i++) {
            if (writtenAt[i] != row && writers[i] != null) {
                if (!optional[i]) {
                    throw new IllegalStateException("BUG: required column " + i + " got no value in a row");
                }
                writers[i].writeNull(0, 0);
            }
        }
        row++;
        store.endRecord();
    }

    /** Hands the row group's bloom filters built here to the page store (after the columns were flushed). */
    void writeBloomFilters(BloomFilterWriteStore pages) {
        for (int i = from; i < to; i++) {
            if (blooms[i] != null) {
                pages.getBloomFilterWriter(descriptors[i]).writeBloomFilter(blooms[i].toParquet());
            }
        }
    }

    private ColumnWriter writer(int index) {
        if (index < from || index >= to) {
            return null;
        }
        if (writtenAt[index] == row) {
            throw new IllegalStateException("BUG: column " + index + " got two values in a row");
        }
        writtenAt[index] = row;
        return writers[index];
    }

    private int level(int index) {
        return optional[index] ? 1 : 0;
    }
}
