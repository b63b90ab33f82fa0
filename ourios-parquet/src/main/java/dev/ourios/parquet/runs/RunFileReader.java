package dev.ourios.parquet.runs;

import dev.ourios.parquet.LogFormatException;
import dev.ourios.parquet.read.StoreInputFile;
import dev.ourios.parquet.rows.StringTable;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a run written by {@link RunFileWriter} one row group (one merge batch) at a time, straight from its PLAIN
 * pages (parquet-java decompresses them): each row comes back as its own {@code byte[]}, so a batch's heap is
 * exactly the arrays it returns.
 */
public final class RunFileReader implements Closeable {
    private final String file;
    private final RandomAccessInput input;
    private final ParquetFileReader reader;
    private final ColumnDescriptor column;
    private final MessageType schema;
    private final StringTable strings;

    private RunFileReader(String file, RandomAccessInput input) throws IOException {
        this.file = file;
        this.input = input;
        try {
            this.reader = ParquetFileReader.open(new StoreInputFile(input, file),
                    ParquetReadOptions.builder(new PlainParquetConfiguration()).build());
        } catch (IOException | RuntimeException e) {
            throw new LogFormatException(file + ": not a readable sort run (" + e.getMessage() + ")", e);
        }
        this.schema = reader.getFooter().getFileMetaData().getSchema();
        if (!schema.equals(RunFileWriter.SCHEMA)) {
            reader.close();
            throw new LogFormatException(file + ": not a sort run (schema " + schema + ")");
        }
        this.column = schema.getColumns().get(0);
        String table = reader.getFooter().getFileMetaData().getKeyValueMetaData().get(RunFileWriter.STRINGS_KEY);
        try {
            this.strings = new RunStringTable(table == null ? List.of() : RunFileWriter.decodeTable(table));
        } catch (RuntimeException e) {
            reader.close();
            throw new LogFormatException(file + ": corrupt sort run string table (" + e + ")", e);
        }
    }

    public static RunFileReader open(ObjectStore store, String key) throws IOException {
        RandomAccessInput input = store.openRandomAccess(key);
        try {
            return new RunFileReader(store.describe(key), input);
        } catch (IOException | RuntimeException e) {
            input.close();
            throw e;
        }
    }

    /** The table the run's rows reference. */
    public StringTable strings() {
        return strings;
    }

    /** Heap of the string table: its arrays plus a String per entry when asked for one. */
    public long stringsBytes() {
        return ((RunStringTable) strings).bytes;
    }

    /** The string table a run's footer carries (see {@link RunFileWriter}), decoded to Strings on demand. */
    private static final class RunStringTable implements StringTable {
        private final List<byte[]> utf8;
        private final String[] decoded;
        private final long bytes;

        RunStringTable(List<byte[]> utf8) {
            this.utf8 = utf8;
            this.decoded = new String[utf8.size()];
            long b = 16L + 8L * utf8.size();
            for (byte[] u : utf8) {
                b += 16 + u.length + 40 + 2L * u.length; // the array, and the String a decode may make of it
            }
            this.bytes = b;
        }

        @Override
        public int intern(String s) {
            return -1;
        }

        @Override
        public byte[] utf8(int id) {
            return utf8.get(id);
        }

        @Override
        public String string(int id) {
            String s = decoded[id];
            if (s == null) {
                s = new String(utf8.get(id), java.nio.charset.StandardCharsets.UTF_8);
                decoded[id] = s;
            }
            return s;
        }
    }

    /** The rows of the next row group, or null after the last. */
    public List<byte[]> nextBatch() throws IOException {
        PageReadStore pages;
        try {
            pages = reader.readNextRowGroup();
        } catch (IOException | RuntimeException e) {
            throw new LogFormatException(file + ": cannot read sort run (" + e.getMessage() + ")", e);
        }
        if (pages == null) {
            return null;
        }
        int n = Math.toIntExact(pages.getRowCount());
        List<byte[]> rows = new ArrayList<>(n);
        PageReader pageReader = pages.getPageReader(column);
        try {
            while (rows.size() < n) {
                DataPage page = pageReader.readPage();
                if (!(page instanceof DataPageV1 v1) || v1.getValueEncoding() != Encoding.PLAIN) {
                    throw new IOException("unexpected page " + page);
                }
                // A REQUIRED top-level column has no levels: the page is [u32 length][bytes] per value. Rows are
                // copied straight out of the decompressed buffer (copying the page into an array first would
                // copy every row twice).
                ByteBuffer bytes = v1.getBytes().toByteBuffer();
                byte[] p;
                int pos;
                if (bytes.hasArray()) {
                    p = bytes.array();
                    pos = bytes.arrayOffset() + bytes.position();
                } else {
                    p = new byte[bytes.remaining()];
                    bytes.duplicate().get(p);
                    pos = 0;
                }
                int end = pos + bytes.remaining();
                for (int i = 0; i < v1.getValueCount(); i++) {
                    if (pos + 4 > end) {
                        throw new IOException("page ends inside value " + i);
                    }
                    int len = (p[pos] & 0xFF) | (p[pos + 1] & 0xFF) << 8 | (p[pos + 2] & 0xFF) << 16
                            | (p[pos + 3] & 0xFF) << 24;
                    if (len < 0 || pos + 4 + len > end) {
                        throw new IOException("value " + i + " of length " + len + " overruns its page");
                    }
                    rows.add(Arrays.copyOfRange(p, pos + 4, pos + 4 + len));
                    pos += 4 + len;
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new LogFormatException(file + ": corrupt sort run (" + e + ")", e);
        } finally {
            pages.close();
        }
        return rows;
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            input.close();
        }
    }

}
