package dev.ourios.parquet.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One column chunk of a compacted file's row group, encoded here into data pages V1 and handed to parquet-java's page
 * writer (which compresses them, or takes them compressed on a helper ({@link PrecompressedPages}), writes the headers
 * and builds the column and offset indexes). It replaces
 * parquet-java's {@code ColumnWriterV1} and values writers, whose per-value work would take most of the
 * column-writer threads' time: a dictionary lookup that hashes every value, a fallback check, a statistics update
 * comparing every value with the page's min and max byte by byte, and a level encoder call per value.
 *
 * <p>Here a page's levels and values are buffered as they come (values raw, plus dictionary ids), and the work is
 * done once per page: levels and ids are run-length encoded in one pass ({@link PageBytes#rleHybrid}); statistics
 * are parquet-java's own {@link Statistics} objects, fed each distinct dictionary entry of the page once, or each
 * plain value that differs from the one before (min and max cannot move otherwise), so they hold what
 * parquet-java's would. A value equal to the previous one, or a constant {@link Binary} seen recently (by identity:
 * the write support hands one instance per string-table entry), finds its dictionary id without hashing.
 *
 * <p>Encodings are parquet-java's V1 choices: PLAIN_DICTIONARY ids (PLAIN dictionary page) while the dictionary
 * stays under {@code dictionaryLimit} bytes and, on the chunk's first page, makes the page smaller than plain; PLAIN
 * otherwise (from the page where the dictionary overflowed on, earlier pages keeping their ids); RLE levels;
 * BIT_PACKED for absent levels. Pages end at row boundaries once they reach {@code pageSize} bytes or
 * {@code pageRows} rows (checked by {@link ChunkWriteStore} at each row's end).
 */
final class ChunkWriter implements ColumnWriter {
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    /**
     * Identity memo slots: a merge hands over one constant Binary per string-table entry of each run it reads, so a
     * value can come as (runs × distinct values) instances, which 64 slots would often miss.
     */
    private static final int MEMO_SLOTS = 512;

    private final ColumnDescriptor column;
    private final PageWriter pages;
    /** Where data pages go to be compressed off this thread, or null to hand them to {@link #pages} at once. */
    private final PrecompressedPages precompressed;
    private final PrimitiveType type;
    private final PrimitiveTypeName kind;
    private final boolean binary;
    private final int maxRep;
    private final int maxDef;
    private final boolean statistics;
    private final int dictionaryLimit;

    // The open page: one entry per level pair, one value per non-null entry.
    private int[] reps = new int[256];
    private int[] defs = new int[256];
    private int entries;
    private int pageRows;
    private int nulls;
    private long[] longs = new long[64]; // fixed-width values' bits (booleans 0/1)
    /**
     * Binary values PLAIN-encoded as they come (BINARY: length, bytes; FIXED_LEN_BYTE_ARRAY: bytes) while the chunk is
     * PLAIN: a PLAIN page's values are these bytes as they are, not a copy (a 16 MiB value is held once, not twice).
     * While the dictionary is in use only ids are kept; the bytes are rebuilt from it if the page goes PLAIN.
     */
    private PageBytes valueBytes = new PageBytes(1024);
    /** Buffers above this after a page are dropped (a huge value must not stay pinned for the rest of the group). */
    private static final int KEEP_BUFFER_BYTES = 4 << 20;
    private int values;
    private int[] ids = new int[64];
    private long rawBytes; // the page's values PLAIN-encoded

    // The chunk's dictionary (while it is in use).
    private boolean dictionary;
    private boolean dictionaryUsed; // a page was written with it: its dictionary page must be written
    private boolean dictionaryChecked; // the first page with values kept it (parquet-java's first-page check)
    private final ValueTable table;
    private int pagesWritten;
    private final int[] memoIds = new int[MEMO_SLOTS];
    private final Object[] memoValues = new Object[MEMO_SLOTS];
    private int lastId = -1;
    private PageBytes page = new PageBytes(1024);

    ChunkWriter(ColumnDescriptor column, PageWriter pages, PrecompressedPages precompressed, boolean dictionary,
            int dictionaryLimit, boolean statistics) {
        this.column = column;
        this.pages = pages;
        this.precompressed = precompressed;
        this.type = column.getPrimitiveType();
        this.kind = type.getPrimitiveTypeName();
        this.binary = kind == PrimitiveTypeName.BINARY || kind == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
        this.maxRep = column.getMaxRepetitionLevel();
        this.maxDef = column.getMaxDefinitionLevel();
        this.statistics = statistics;
        this.dictionaryLimit = dictionaryLimit;
        // parquet-java's V1 writers have no dictionary for booleans.
        this.dictionary = dictionary && kind != PrimitiveTypeName.BOOLEAN && kind != PrimitiveTypeName.INT96;
        this.table = this.dictionary ? new ValueTable(binary) : null;
    }

    // ------------------------------------------------------------------------------------------------ values in

    private void level(int r, int d) {
        if (entries == reps.length) {
            reps = Arrays.copyOf(reps, entries * 2);
            defs = Arrays.copyOf(defs, entries * 2);
        }
        reps[entries] = r;
        defs[entries] = d;
        entries++;
        if (r == 0) {
            pageRows++;
        }
    }

    private void fixed(long bits, int width) {
        if (values == longs.length) {
            longs = Arrays.copyOf(longs, values * 2);
        }
        longs[values] = bits;
        rawBytes += width;
        if (dictionary) {
            int id = lastId >= 0 && table.longAt(lastId) == bits ? lastId : table.idOf(bits);
            if (id < 0) {
                id = table.add(bits, width);
            }
            addId(id);
        }
        values++;
    }

    private void addId(int id) {
        if (values == ids.length) {
            ids = Arrays.copyOf(ids, Math.max(values * 2, 64));
        }
        ids[values] = id;
        lastId = id;
        if (table.bytes() > dictionaryLimit) {
            dictionary = false; // from this page on: PLAIN
            materializePlain(values + 1);
        }
    }

    @Override
    public void write(int value, int r, int d) {
        level(r, d);
        fixed(value, 4);
    }

    @Override
    public void write(long value, int r, int d) {
        level(r, d);
        fixed(value, 8);
    }

    @Override
    public void write(float value, int r, int d) {
        level(r, d);
        fixed(Float.floatToIntBits(value), 4); // as parquet-java's PLAIN writer: NaN canonical
    }

    @Override
    public void write(double value, int r, int d) {
        level(r, d);
        fixed(Double.doubleToLongBits(value), 8);
    }

    @Override
    public void write(boolean value, int r, int d) {
        level(r, d);
        if (values == longs.length) {
            longs = Arrays.copyOf(longs, values * 2);
        }
        longs[values++] = value ? 1 : 0;
        rawBytes++; // an upper bound (PLAIN packs 8 per byte)
    }

    @Override
    public void write(Binary value, int r, int d) {
        ByteBuffer view = value.toByteBuffer();
        if (view.hasArray()) {
            write(view.array(), view.arrayOffset() + view.position(), view.remaining(),
                    value.isBackingBytesReused() ? null : value, r, d);
        } else {
            byte[] copy = value.getBytes();
            write(copy, 0, copy.length, null, r, d);
        }
    }

    /**
     * A binary value as a byte range: what the shredder hands over, without a {@link Binary} per value (the JIT
     * does not always optimise their allocation away, and then it costs as much as the dictionary lookup).
     * {@code constant}: an object that stands for these bytes for as long as it lives (the string-table entry's
     * constant Binary), the key of the identity memo; null for bytes in a reused buffer.
     */
    void write(byte[] a, int off, int len, Object constant, int r, int d) {
        level(r, d);
        rawBytes += kind == PrimitiveTypeName.BINARY ? 4 + len : len;
        if (dictionary) {
            addId(binaryId(constant, a, off, len)); // the bytes are in the dictionary
        } else {
            appendPlain(a, off, len);
        }
        values++;
    }

    private void appendPlain(byte[] a, int off, int len) {
        if (kind == PrimitiveTypeName.BINARY) {
            valueBytes.i32(len);
        }
        valueBytes.bytes(a, off, len);
    }

    /**
     * The open page's first {@code n} binary values, PLAIN, from their dictionary ids: what the page needs when it
     * is written PLAIN after all (the dictionary overflowed, or lost the first page's check).
     */
    private void materializePlain(int n) {
        if (!binary) {
            return; // fixed-width values are always kept raw
        }
        valueBytes.reset();
        for (int i = 0; i < n; i++) {
            table.appendEntry(ids[i], this);
        }
    }

    /** The dictionary id of a value: memoised by identity for constants, else looked up (added if new). */
    private int binaryId(Object constant, byte[] a, int off, int len) {
        int slot = constant != null ? System.identityHashCode(constant) & (MEMO_SLOTS - 1) : -1;
        if (constant != null && memoValues[slot] == constant) {
            return memoIds[slot];
        }
        int id;
        if (lastId >= 0 && table.sameBytes(lastId, a, off, len)) {
            id = lastId;
        } else {
            id = table.idOf(a, off, len);
            if (id < 0) {
                id = table.add(a, off, len);
            }
        }
        if (constant != null) {
            memoValues[slot] = constant;
            memoIds[slot] = id;
        }
        return id;
    }

    @Override
    public void writeNull(int r, int d) {
        level(r, d);
        nulls++;
    }

    // ------------------------------------------------------------------------------------------------ pages out

    /** Whether the open page is due: {@code pageSize} bytes (parquet-java's estimate) or {@code pageRows} rows. */
    boolean pageFull(long pageSize, int pageRowLimit) {
        return entries > 0 && (pageBytes() >= pageSize || pageRows >= pageRowLimit);
    }

    /** The open page's size as parquet-java estimates it (4 bytes per dictionary id) plus its levels. */
    long pageBytes() {
        return (dictionary ? 4L * values : rawBytes) + (entries >>> 2);
    }

    /** Bytes buffered: the open page plus the compressed pages handed to the page writer. */
    long bufferedBytes() {
        return pageBytes() + pages.getMemSize();
    }

    /** Encodes and hands over the open page. */
    void writePage() {
        if (entries == 0) {
            return;
        }
        try {
            boolean dictionaryPage = dictionary && keepDictionary();
            page.reset();
            Encoding rl = levels(reps, maxRep);
            Encoding dl = levels(defs, maxDef);
            Statistics<?> stats = statistics ? Statistics.createStats(type) : Statistics.noopStats(type);
            stats.incrementNumNulls(nulls);
            Encoding valuesEncoding;
            if (dictionaryPage) {
                int width = BytesUtils.getWidthFromMaxInt(Math.max(0, table.size() - 1));
                page.u8(width);
                page.rleHybrid(ids, values, width);
                if (statistics) {
                    table.updateStats(stats, ids, values, pagesWritten);
                }
                dictionaryUsed = true;
                valuesEncoding = Encoding.PLAIN_DICTIONARY;
            } else {
                plainValues(stats);
                valuesEncoding = Encoding.PLAIN;
            }
            BytesInput body = BytesInput.from(page.array(), 0, page.size());
            if (!dictionaryPage && binary) {
                body = BytesInput.concat(body, BytesInput.from(valueBytes.array(), 0, valueBytes.size()));
            }
            SizeStatistics sizes = SizeStatistics.noopBuilder(type, maxRep, maxDef).build();
            if (precompressed != null) {
                precompressed.add(pages, body, entries, pageRows, stats, sizes, rl, dl, valuesEncoding);
            } else {
                pages.writePage(body, entries, pageRows, stats, sizes, GeospatialStatistics.noopBuilder().build(), rl,
                        dl, valuesEncoding);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(column + ": cannot write a page", e);
        }
        pagesWritten++;
        entries = 0;
        pageRows = 0;
        nulls = 0;
        values = 0;
        rawBytes = 0;
        valueBytes.reset();
        if (valueBytes.array().length > KEEP_BUFFER_BYTES) {
            valueBytes = new PageBytes(1024);
        }
        if (page.array().length > KEEP_BUFFER_BYTES) {
            page = new PageBytes(1024);
        }
    }

    /**
     * Whether this page keeps dictionary encoding: always once a page did; on the chunk's first page with values only
     * when ids plus dictionary are smaller than the plain values (else the chunk goes PLAIN: parquet-java's check).
     */
    private boolean keepDictionary() {
        if (dictionaryChecked) {
            return true;
        }
        if (values == 0) {
            return false; // a page of nulls: PLAIN (no values), and the check waits for a page with values
        }
        long idBytes = 1 + (long) values * BytesUtils.getWidthFromMaxInt(Math.max(0, table.size() - 1)) / 8;
        if (idBytes + table.bytes() < rawBytes) {
            dictionaryChecked = true;
            return true;
        }
        dictionary = false;
        materializePlain(values);
        return false;
    }

    private Encoding levels(int[] levels, int max) {
        if (max == 0) {
            return Encoding.BIT_PACKED; // nothing written (what parquet-java reports for absent levels)
        }
        int lengthAt = page.size();
        page.i32(0);
        page.rleHybrid(levels, entries, BytesUtils.getWidthFromMaxInt(max));
        page.i32At(lengthAt, page.size() - lengthAt - 4);
        return Encoding.RLE;
    }

    private void plainValues(Statistics<?> stats) {
        switch (kind) {
            case BOOLEAN -> {
                int bytes = (values + 7) >>> 3;
                page.ensure(bytes);
                int start = page.size();
                for (int i = 0; i < bytes; i++) {
                    page.u8(0);
                }
                byte[] out = page.array();
                for (int i = 0; i < values; i++) {
                    if (longs[i] != 0) {
                        out[start + (i >>> 3)] |= (byte) (1 << (i & 7));
                    }
                }
                if (statistics) {
                    for (int i = 0; i < values; i++) {
                        if (i == 0 || longs[i] != longs[i - 1]) {
                            stats.updateStats(longs[i] != 0);
                        }
                    }
                }
            }
            case INT32, FLOAT -> {
                page.ensure(4 * values);
                for (int i = 0; i < values; i++) {
                    page.i32((int) longs[i]);
                }
                if (statistics) {
                    for (int i = 0; i < values; i++) {
                        if (i == 0 || longs[i] != longs[i - 1]) {
                            updateFixed(stats, longs[i]);
                        }
                    }
                }
            }
            case INT64, DOUBLE -> {
                page.ensure(8 * values);
                for (int i = 0; i < values; i++) {
                    page.i64(longs[i]);
                }
                if (statistics) {
                    for (int i = 0; i < values; i++) {
                        if (i == 0 || longs[i] != longs[i - 1]) {
                            updateFixed(stats, longs[i]);
                        }
                    }
                }
            }
            case BINARY, FIXED_LEN_BYTE_ARRAY -> {
                // The values are already PLAIN in valueBytes (appended to the page by writePage): statistics only.
                if (!statistics) {
                    return;
                }
                byte[] src = valueBytes.array();
                boolean prefixed = kind == PrimitiveTypeName.BINARY;
                int p = 0;
                int prevStart = -1;
                int prevLen = -1;
                for (int i = 0; i < values; i++) {
                    int len = prefixed ? (int) I32.get(src, p) : type.getTypeLength();
                    int start = prefixed ? p + 4 : p;
                    if (len != prevLen || !Arrays.equals(src, start, start + len, src, prevStart, prevStart + len)) {
                        stats.updateStats(Binary.fromReusedByteArray(src, start, len));
                    }
                    prevStart = start;
                    prevLen = len;
                    p = start + len;
                }
            }
            default -> throw new IllegalStateException(column + ": type " + kind + " not supported");
        }
    }

    private void updateFixed(Statistics<?> stats, long bits) {
        switch (kind) {
            case INT32 -> stats.updateStats((int) bits);
            case INT64 -> stats.updateStats(bits);
            case FLOAT -> stats.updateStats(Float.intBitsToFloat((int) bits));
            case DOUBLE -> stats.updateStats(Double.longBitsToDouble(bits));
            default -> throw new IllegalStateException(column + ": not a fixed-width type " + kind);
        }
    }

    /**
     * Writes the dictionary page if any page used the dictionary: the chunk's end, after its last {@link #writePage}
     * (and, with pages compressed off this thread, once they all reached the page writer, as inline). The dictionary
     * page itself is compressed inline.
     */
    void writeDictionary() {
        if (dictionaryUsed) {
            try {
                pages.writeDictionaryPage(new DictionaryPage(table.plainBytes(kind), table.size(),
                        Encoding.PLAIN_DICTIONARY));
            } catch (IOException e) {
                throw new UncheckedIOException(column + ": cannot write the dictionary page", e);
            }
        }
    }

    @Override
    public void close() {
    }

    @Override
    public long getBufferedSizeInMemory() {
        return bufferedBytes();
    }

    /**
     * A chunk's dictionary: distinct values in first-seen order, looked up through an open-addressing table of ids
     * (binary values hashed eight bytes at a time).
     */
    static final class ValueTable {
        private final boolean binary;
        private int[] slots = new int[1024]; // id + 1, 0 = empty
        private int size;
        private long[] longs = new long[256];
        private final PageBytes bytes = new PageBytes(4096);
        private int[] ends = new int[256];
        private long plainBytes;
        private int[] stamps = new int[256]; // the page that last fed each entry to the statistics, plus one

        ValueTable(boolean binary) {
            this.binary = binary;
        }

        int size() {
            return size;
        }

        /** The dictionary page's size (PLAIN): what parquet-java compares with its limit. */
        long bytes() {
            return plainBytes;
        }

        long longAt(int id) {
            return longs[id];
        }

        int idOf(long bits) {
            int mask = slots.length - 1;
            for (int s = mix(bits) & mask; ; s = (s + 1) & mask) {
                int id = slots[s] - 1;
                if (id < 0 || longs[id] == bits) {
                    return id;
                }
            }
        }

        int add(long bits, int width) {
            int id = grow();
            longs[id] = bits;
            plainBytes += width;
            insert(id, mix(bits));
            return id;
        }

        /** Appends entry {@code id} to {@code writer}'s PLAIN values. */
        void appendEntry(int id, ChunkWriter writer) {
            int start = id == 0 ? 0 : ends[id - 1];
            writer.appendPlain(bytes.array(), start, ends[id] - start);
        }

        boolean sameBytes(int id, byte[] a, int off, int len) {
            int start = id == 0 ? 0 : ends[id - 1];
            return ends[id] - start == len && Arrays.equals(bytes.array(), start, ends[id], a, off, off + len);
        }

        int idOf(byte[] a, int off, int len) {
            int mask = slots.length - 1;
            for (int s = hash(a, off, len) & mask; ; s = (s + 1) & mask) {
                int id = slots[s] - 1;
                if (id < 0 || sameBytes(id, a, off, len)) {
                    return id;
                }
            }
        }

        int add(byte[] a, int off, int len) {
            int id = grow();
            bytes.bytes(a, off, len);
            ends[id] = bytes.size();
            plainBytes += 4L + len;
            insert(id, hash(a, off, len));
            return id;
        }

        private int grow() {
            if (size == ends.length) {
                int cap = size * 2;
                ends = Arrays.copyOf(ends, cap);
                longs = Arrays.copyOf(longs, cap);
                stamps = Arrays.copyOf(stamps, cap);
            }
            if ((size + 1) * 2 > slots.length) {
                rehash();
            }
            return size++;
        }

        private void insert(int id, int hash) {
            int mask = slots.length - 1;
            int s = hash & mask;
            while (slots[s] != 0) {
                s = (s + 1) & mask;
            }
            slots[s] = id + 1;
        }

        private void rehash() {
            slots = new int[slots.length * 2];
            for (int id = 0; id < size; id++) {
                int start = id == 0 ? 0 : ends[id - 1];
                insert(id, binary ? hash(bytes.array(), start, ends[id] - start) : mix(longs[id]));
            }
        }

        /** Feeds each entry used by {@code ids[0, n)} to {@code stats} once (page {@code page} of the chunk). */
        void updateStats(Statistics<?> stats, int[] ids, int n, int page) {
            int stamp = page + 1;
            for (int i = 0; i < n; i++) {
                int id = ids[i];
                if (stamps[id] == stamp) {
                    continue;
                }
                stamps[id] = stamp;
                if (binary) {
                    int start = id == 0 ? 0 : ends[id - 1];
                    // A constant view of the entry: the table only appends, so the bytes never change.
                    stats.updateStats(Binary.fromConstantByteArray(bytes.array(), start, ends[id] - start));
                } else {
                    switch (stats.type().getPrimitiveTypeName()) {
                        case INT32 -> stats.updateStats((int) longs[id]);
                        case INT64 -> stats.updateStats(longs[id]);
                        case FLOAT -> stats.updateStats(Float.intBitsToFloat((int) longs[id]));
                        case DOUBLE -> stats.updateStats(Double.longBitsToDouble(longs[id]));
                        default -> throw new IllegalStateException("no dictionary for " + stats.type());
                    }
                }
            }
        }

        /** The dictionary page's body: every entry PLAIN-encoded, in id order. */
        BytesInput plainBytes(PrimitiveTypeName kind) {
            PageBytes out = new PageBytes((int) Math.min(Integer.MAX_VALUE - 16, plainBytes));
            int start = 0;
            for (int id = 0; id < size; id++) {
                switch (kind) {
                    case BINARY -> {
                        out.i32(ends[id] - start);
                        out.bytes(bytes.array(), start, ends[id] - start);
                    }
                    case FIXED_LEN_BYTE_ARRAY -> out.bytes(bytes.array(), start, ends[id] - start);
                    case INT32, FLOAT -> out.i32((int) longs[id]);
                    case INT64, DOUBLE -> out.i64(longs[id]);
                    default -> throw new IllegalStateException("no dictionary for " + kind);
                }
                if (binary) {
                    start = ends[id];
                }
            }
            return BytesInput.from(out.array(), 0, out.size());
        }

        private static int mix(long v) {
            long h = v * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 29));
        }

        /** A hash of {@code a[off, off + len)}, eight bytes per step. */
        private static int hash(byte[] a, int off, int len) {
            long h = len * 0x9E3779B97F4A7C15L;
            int i = 0;
            for (; i + 8 <= len; i += 8) {
                h = Long.rotateLeft(h ^ ((long) I64.get(a, off + i) * 0xC2B2AE3D27D4EB4FL), 31) * 0x9E3779B97F4A7C15L;
            }
            for (; i < len; i++) {
                h = (h ^ (a[off + i] & 0xFF)) * 0x100000001B3L;
            }
            return (int) (h ^ (h >>> 32));
        }
    }
}
