package dev.ourios.parquet.write;

import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * parquet-java's binary dictionary writer, plus a memo of the dictionary ids of the last constant {@link Binary}
 * instances it was given, by identity.
 *
 * <p>Why: parquet-java looks every value up in its dictionary map, which hashes all of its bytes and compares them with
 * the stored copy; for the ~230-byte resource attributes JSON repeated row after row, that is the largest single cost
 * of writing a compacted file ({@code Binary.hashCode} and {@code equals}). The write support hands over one constant
 * Binary per string-table entry, so a repeat is one identity check. Reused-buffer Binaries (inline values) are never
 * memoised: their bytes change. Ids, dictionary sizes and fallback decisions are exactly parquet-java's, so the bytes
 * written do not change.
 */
final class MemoisedBinaryDictionaryWriter extends DictionaryValuesWriter.PlainBinaryDictionaryValuesWriter {
    private static final int SLOTS = 64;
    private final Binary[] memoValues = new Binary[SLOTS];
    private final int[] memoIds = new int[SLOTS];

    MemoisedBinaryDictionaryWriter(int maxDictionaryByteSize, Encoding dataPage, Encoding dictionaryPage,
            ByteBufferAllocator allocator) {
        super(maxDictionaryByteSize, dataPage, dictionaryPage, allocator);
    }

    @Override
    public void writeBytes(Binary v) {
        boolean constant = !v.isBackingBytesReused();
        int slot = constant ? System.identityHashCode(v) & (SLOTS - 1) : -1;
        if (constant && memoValues[slot] == v) {
            encodedValues.add(memoIds[slot]);
            return;
        }
        // What the superclass does (its id is not returned, so it is repeated here, line for line).
        int id = binaryDictionaryContent.getInt(v);
        if (id == -1) {
            id = binaryDictionaryContent.size();
            binaryDictionaryContent.put(v.copy(), id);
            dictionaryByteSize += 4L + v.length();
        }
        encodedValues.add(id);
        if (constant) {
            memoValues[slot] = v;
            memoIds[slot] = id;
        }
    }

    @Override
    protected void clearDictionaryContent() {
        super.clearDictionaryContent();
        java.util.Arrays.fill(memoValues, null); // ids restart with the next row group's dictionary
    }

    /**
     * parquet-java's default values writers (format v1), with this writer in place of its binary dictionary writer
     * for every dictionary-encoded BINARY column.
     */
    static final class Factory implements ValuesWriterFactory {
        private final ValuesWriterFactory defaults = new DefaultValuesWriterFactory();
        private ParquetProperties props;

        @Override
        public void initialize(ParquetProperties properties) {
            this.props = properties;
            defaults.initialize(properties);
        }

        @Override
        public ValuesWriter newValuesWriter(ColumnDescriptor column) {
            if (column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BINARY
                    || !props.isDictionaryEnabled(column)
                    || props.getWriterVersion() != ParquetProperties.WriterVersion.PARQUET_1_0) {
                return defaults.newValuesWriter(column);
            }
            return FallbackValuesWriter.of(
                    new MemoisedBinaryDictionaryWriter(props.getDictionaryPageSizeThreshold(),
                            Encoding.PLAIN_DICTIONARY, Encoding.PLAIN_DICTIONARY, props.getAllocator()),
                    new PlainValuesWriter(props.getInitialSlabSize(), props.getPageSizeThreshold(),
                            props.getAllocator()));
        }
    }
}
