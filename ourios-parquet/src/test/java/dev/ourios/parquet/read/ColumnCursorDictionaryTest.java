package dev.ourios.parquet.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * A dictionary-encoded page is read against its chunk's dictionary: ids inside it give the entries' values, and an id
 * at or beyond the dictionary's size (a corrupt file) fails the read naming the column and the id, never a value of
 * another entry or an index error.
 */
class ColumnCursorDictionaryTest {
    private static final PrimitiveType NAME = Types.required(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType()).named("service");
    private static final ColumnDescriptor COLUMN = new ColumnDescriptor(new String[] {"service"}, NAME, 0, 0);

    @Test
    void idsInsideTheDictionaryReadItsEntries() throws IOException {
        int[] ids = {0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1};
        ColumnCursor c = new ColumnCursor(COLUMN, pages(List.of("cart", "checkout"), ids));
        for (int i = 0; i < ids.length; i++) {
            assertTrue(c.next());
            assertEquals(ids[i] == 0 ? "cart" : "checkout", c.string(), "entry " + i);
        }
    }

    @Test
    void anIdBeyondTheDictionaryFailsTheReadNamingColumnAndId() throws IOException {
        for (int bad : new int[] {2, 3, 7}) {
            int[] ids = {0, 1, 0, bad, 1, 0, 1, 0};
            ColumnCursor c = new ColumnCursor(COLUMN, pages(List.of("cart", "checkout"), ids));
            IllegalStateException e = assertThrows(IllegalStateException.class, c::next);
            assertEquals("column service: dictionary id " + bad + " out of range (2 entries)", e.getMessage());
        }
    }

    /** A dictionary page of {@code entries} (PLAIN) and one data page of {@code ids} (RLE_DICTIONARY). */
    private static PageReader pages(List<String> entries, int[] ids) throws IOException {
        ByteArrayOutputStream dict = new ByteArrayOutputStream();
        for (String e : entries) {
            byte[] b = e.getBytes(StandardCharsets.UTF_8);
            dict.write(littleEndian(b.length));
            dict.write(b);
        }
        int width = 3; // room for the out-of-range ids too
        RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(width, 64, 1024,
                HeapByteBufferAllocator.getInstance());
        for (int id : ids) {
            encoder.writeInt(id);
        }
        byte[] data = BytesInput.concat(BytesInput.from(new byte[] {(byte) width}), encoder.toBytes()).toByteArray();
        DictionaryPage dictionary = new DictionaryPage(BytesInput.from(dict.toByteArray()), entries.size(),
                Encoding.PLAIN);
        Deque<DataPage> data1 = new ArrayDeque<>(List.of(new DataPageV1(BytesInput.from(data), ids.length,
                data.length, Statistics.createStats(NAME), Encoding.RLE, Encoding.RLE, Encoding.RLE_DICTIONARY)));
        return new PageReader() {
            @Override
            public DictionaryPage readDictionaryPage() {
                return dictionary;
            }

            @Override
            public long getTotalValueCount() {
                return ids.length;
            }

            @Override
            public DataPage readPage() {
                return data1.poll();
            }
        };
    }

    private static byte[] littleEndian(int v) {
        return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
    }
}
