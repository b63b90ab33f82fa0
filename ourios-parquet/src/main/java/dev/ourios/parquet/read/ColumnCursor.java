package dev.ourios.parquet.read;

import dev.ourios.parquet.rows.RowCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One column chunk's entries (definition level, repetition level, value), decoded a page at a time into arrays:
 * levels and dictionary ids in one pass per page ({@link LevelDecoding}), PLAIN values read in place from the
 * decompressed page. Pages are fetched and decompressed by parquet-java's page reader; only the value decoding and
 * the record assembly are ours (parquet-java's per-value state machine would be most of a compaction's input
 * readers' work).
 *
 * <p>A page read in order ({@link #next} from its start: compaction, full scans) is decoded whole at once. A page
 * whose first use is a seek ({@link #seekRow}: the kept rows of a query, the candidate rows of a prefilter) is decoded
 * in windows instead, when it is a non-repeated column whose levels and values can be read as a stream: the seek
 * skips the entries before the row (an RLE run of levels or ids at once, a bit-packed run without decoding it, PLAIN
 * fixed-width values not at all) and only the entries from the row on are decoded, a window at a time
 * ({@link #SPARSE_WINDOW} entries, or as many as a run of tests asks for). Reading one row of a page of 40,000 then
 * costs a skip and a few decoded entries per column rather than the whole page.
 *
 * <p>Supports the encodings in {@link #SUPPORTED}, data pages V1 and V2; {@link ColumnarRows#supports} sends files
 * with any other encoding to parquet-java's reader instead. Memory: one page's levels, ids and bytes per column,
 * as parquet-java's reader holds.
 */
final class ColumnCursor {
    /** Encodings decoded here: what parquet-java (V1) and arrow-rs (V1, V2) writers use for these columns. */
    static final Set<Encoding> SUPPORTED = java.util.Collections.unmodifiableSet(java.util.EnumSet.of(Encoding.PLAIN,
            Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED));

    /** Entries a window of a sparsely read page holds when nothing asks for more. */
    static final int SPARSE_WINDOW = 64;

    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final String column;
    private final PageReader pages;
    private final PrimitiveTypeName type;
    private final int typeLength;
    private final int maxDef;
    private final int maxRep;

    // The chunk's dictionary, decoded once (strings decoded lazily, once per entry).
    private boolean hasDictionary;
    private long[] dictLongs;
    private byte[][] dictBytes;
    private String[] dictStrings;

    /** Verdicts of column tests on dictionary entries, see {@link #verdicts}. */
    private static final byte UNKNOWN = 0;
    private static final byte PASSES = 1;
    private static final byte FAILS = 2;
    private final ColumnTest[] verdictTests = new ColumnTest[2];
    private final byte[][] verdictsByTest = new byte[2][];

    // The current page.
    private int entries;
    private int entry;
    private int[] defs = new int[0];
    private int[] reps = new int[0];
    private boolean dictionaryEncoded;
    private int[] ids = new int[0];
    private int[] booleans = new int[0];
    private byte[] data;
    private int dataStart;
    private int dataEnd;
    private int[] offsets = new int[0];
    /** Values in a page decoded whole. */
    private int values;
    /**
     * The decoded window of the page: entries {@code [entryBase, windowEnd)} are in {@link #defs} (and {@link #reps})
     * from index 0, values {@code [valueBase, valueEnd)} in {@link #ids}, {@link #offsets} or {@link #booleans} from
     * index 0. A page decoded whole has bases 0 and ends at its entries and values.
     */
    private int entryBase;
    private int windowEnd;
    private int valueBase;
    private int valueEnd;
    /** The page is decoded window by window from {@link #levelRuns} and the values (see the class comment). */
    private boolean windowed;
    /** The page's raw parts, kept until its first use decides how it is decoded. */
    private DataPage page;
    private Encoding valueEncoding;
    private final HybridRuns levelRuns = new HybridRuns();
    private final HybridRuns repetitionRuns = new HybridRuns();
    /** Dictionary ids, or RLE booleans, of a windowed page. */
    private final HybridRuns valueRuns = new HybridRuns();
    /** A windowed PLAIN BYTE_ARRAY page: where value {@link #valueEnd} starts. */
    private int plainAt;
    /** Per entry of the page, the values before it (built on the first skip within the page, see {@link #defined}). */
    private int[] definedBefore = new int[0];
    private boolean definedBeforeReady;
    /** For a list column, the entries of the page that start a row, in order (built with {@link #firstRowStartFrom}). */
    private int[] rowStarts = new int[0];
    private int rowStartCount;
    private boolean rowStartsReady;

    // The entry last returned by next().
    private int def;
    private int value = -1;
    /**
     * The row (index in the row group) that the next entry starting a row belongs to: counted from 0, and set from a
     * page's first row index when the page reader knows it (pages skipped through the offset index).
     */
    private long nextRow;

    ColumnCursor(ColumnDescriptor descriptor, PageReader pages) {
        this.column = String.join(".", descriptor.getPath());
        this.pages = pages;
        this.type = descriptor.getPrimitiveType().getPrimitiveTypeName();
        this.typeLength = descriptor.getPrimitiveType().getTypeLength();
        this.maxDef = descriptor.getMaxDefinitionLevel();
        this.maxRep = descriptor.getMaxRepetitionLevel();
        DictionaryPage dictionary = pages.readDictionaryPage();
        if (dictionary != null) {
            readDictionary(dictionary);
        }
    }

    /** Moves to the next entry; true when it holds a value (its definition level is the maximum). */
    boolean next() {
        if (entry == windowEnd && !advance()) {
            throw new IllegalStateException("column " + column + " has fewer entries than the row group's rows");
        }
        if (maxRep == 0 || reps[entry - entryBase] == 0) {
            nextRow++;
        }
        def = maxDef == 0 ? 0 : defs[entry - entryBase];
        entry++;
        if (def == maxDef) {
            value++;
            return true;
        }
        return false;
    }

    /**
     * Moves to just before the first entry of row {@code row} (an index in the row group), skipping the entries of
     * the rows before it; the pages of skipped rows that the page reader left out (offset-index filtering) are not
     * seen at all. Rows are visited in increasing order only.
     */
    void seekRow(long row) {
        while (true) {
            if (entry == entries && !nextPage()) {
                throw new IllegalStateException("column " + column + " ends before row " + row);
            }
            if (page != null) {
                startPage(true);
            }
            if (nextRow > row) {
                throw new IllegalStateException("column " + column + ": row " + row + " is not in its pages (next row "
                        + nextRow + ")");
            }
            if (nextRow == row && (maxRep == 0 || startsRow())) {
                return;
            }
            if (maxRep == 0) { // one entry per row: skip the page's share of the gap at once
                int skip = (int) Math.min(row - nextRow, entries - entry);
                int decoded = Math.min(skip, windowEnd - entry);
                value += maxDef == 0 ? decoded : defined(entry, entry + decoded);
                entry += decoded;
                if (decoded < skip) { // past the window (a windowed page): skipped in the runs, not decoded
                    skipUndecoded(skip - decoded);
                }
                nextRow += skip;
            } else if (entry == windowEnd) { // a list past a windowed page's window: rows skipped in the runs
                skipUndecodedRows(row - nextRow);
            } else { // a list: jump to the entry that starts the row, or past the window's rows
                int first = firstRowStartFrom(entry);
                long inWindow = rowStartCount - first;
                int to = row - nextRow < inWindow ? entryBase + rowStarts[first + (int) (row - nextRow)] : windowEnd;
                value += maxDef == 0 ? to - entry : defined(entry, to);
                nextRow += Math.min(row - nextRow, inWindow);
                entry = to;
            }
        }
    }

    /** Whether entry {@link #entry} of a list column (not at the page's end) starts a row; decodes it if need be. */
    private boolean startsRow() {
        if (entry == windowEnd) {
            refill(SPARSE_WINDOW);
        }
        return reps[entry - entryBase] == 0;
    }

    /**
     * Skips the entries of a list column from the window's end ({@link #entry} is there) up to the one that starts
     * the row {@code rows} rows on (or to the page's end), without decoding them; the window is then empty there.
     */
    private void skipUndecodedRows(long rows) {
        int n = repetitionRuns.skipBefore(0, (int) Math.min(rows, Integer.MAX_VALUE), entries - entry);
        nextRow += repetitionRuns.passed();
        skipUndecoded(n);
    }

    /**
     * The index in {@link #rowStarts} of the first entry at or after {@code from} (in the window) that starts a row
     * (repetition level 0); {@link #rowStartCount} if none does. The window's entries that start rows are listed on
     * its first skip, so a sparse read finds a row by a search instead of stepping through every list element before
     * it. {@link #rowStarts} holds positions in the window.
     */
    private int firstRowStartFrom(int from) {
        int decoded = windowEnd - entryBase;
        if (!rowStartsReady) {
            if (rowStarts.length < decoded) {
                rowStarts = new int[Math.max(decoded, rowStarts.length * 2)];
            }
            int n = 0;
            for (int i = 0; i < decoded; i++) {
                // Without a branch: which entries start rows follows the data, so a branch would mispredict often.
                rowStarts[n] = i;
                n += (reps[i] - 1) >>> 31; // 1 for level 0, 0 otherwise (levels are never negative)
            }
            rowStartCount = n;
            rowStartsReady = true;
        }
        int at = Arrays.binarySearch(rowStarts, 0, rowStartCount, from - entryBase);
        return at >= 0 ? at : -at - 1;
    }

    /**
     * Tests a run of rows: seeks to {@code row} and, for each of the rows {@code [row, row + n)} that lie in the page
     * holding {@code row}, clears {@code passes[i]} (row {@code row + i}) when the row fails {@code test}, its value
     * read where it lies in the page (or the dictionary); returns how many rows that is (at least 1 when
     * {@code n > 0}). Nothing past {@code row} is consumed, so {@link #next} then returns row {@code row}'s entry as
     * usual. Only on a column {@link #canTest} accepts for the test. With {@code valued}, also clears
     * {@code valued[i]} when row {@code row + i} holds no value (null) in this column.
     */
    int peekPassesRun(long row, int n, ColumnTest test, boolean[] passes, boolean[] valued) {
        if (n == 0) {
            return 0;
        }
        seekRow(row);
        if (windowEnd - entry < n && windowEnd < entries) {
            refill(n);
        }
        int k = Math.min(n, windowEnd - entry);
        int e0 = entry - entryBase;
        if (valued != null && maxDef > 0) {
            for (int i = 0; i < k; i++) {
                valued[i] &= defs[e0 + i] == maxDef;
            }
        }
        int v = value + 1 - valueBase;
        if (dictionaryEncoded) { // the common case: a verdict per dictionary entry, one array read per row
            byte[] known = verdicts(test);
            boolean nullPasses = nullPasses(test);
            for (int i = 0; i < k; i++) {
                if (maxDef > 0 && defs[e0 + i] != maxDef) {
                    passes[i] &= nullPasses;
                    continue;
                }
                int id = ids[v++];
                if (known[id] == UNKNOWN) {
                    known[id] = dictionaryEntryPasses(test, id) ? PASSES : FAILS;
                }
                passes[i] &= known[id] == PASSES;
            }
            return k;
        }
        for (int i = 0; i < k; i++) {
            int e = e0 + i;
            passes[i] &= passesAt(test, e, v);
            if (maxDef == 0 || defs[e] == maxDef) {
                v++;
            }
        }
        return k;
    }

    /**
     * For a count decided by {@code test} alone: seeks to {@code row} and counts the rows of {@code [row, row + n)}
     * whose value passes, consuming nothing (as {@link #peekPassesRun}, whose verdicts it sums without writing them);
     * {@link #counted} is then how many rows it decided. -1, nothing decided, where a row of the run holds no value
     * (its verdict is not the test's alone) or the column is not dictionary-encoded.
     */
    int countPassing(long row, int n, ColumnTest test) {
        if (n == 0) {
            counted = 0;
            return 0;
        }
        seekRow(row);
        if (!dictionaryEncoded) {
            return -1;
        }
        if (windowed && entry == windowEnd && maxDef == 0 && maxRep == 0) {
            int[] weights = passingOnes(test, Math.min(n, entries - entry));
            if (weights != null) { // nothing decoded ahead: the ids are summed from the runs, no window made
                return sumUndecoded(Math.min(n, entries - entry), weights);
            }
        }
        if (windowEnd - entry < n && windowEnd < entries) {
            refill(n);
        }
        int k = Math.min(n, windowEnd - entry);
        int e0 = entry - entryBase;
        if (maxDef > 0) {
            int absent = 0;
            for (int i = 0; i < k; i++) {
                absent |= defs[e0 + i] ^ maxDef; // 0 while every row holds a value
            }
            if (absent != 0) {
                return -1;
            }
        }
        int v = value + 1 - valueBase;
        int passing = 0;
        int[] ones = passingOnes(test, k);
        if (ones != null) { // every entry decided: one array read and an add per row, no branch
            for (int i = 0; i < k; i++) {
                passing += ones[ids[v + i]];
            }
        } else {
            byte[] known = verdicts(test);
            for (int i = 0; i < k; i++) {
                int id = ids[v + i];
                byte verdict = known[id];
                if (verdict == UNKNOWN) {
                    verdict = dictionaryEntryPasses(test, id) ? PASSES : FAILS;
                    known[id] = verdict;
                }
                passing += verdict == PASSES ? 1 : 0;
            }
        }
        counted = k;
        return passing;
    }

    /** Ids decoded a chunk at a time by {@link #sumUndecoded}. */
    private final int[] sumScratch = new int[256];

    /**
     * Counts the next {@code n} entries of a windowed page, none of them decoded, all holding a value: their ids'
     * {@code weights} summed from the runs; the entries are consumed as a skip consumes them ({@link #skipUndecoded}).
     */
    private int sumUndecoded(int n, int[] weights) {
        int passing = valueRuns.sumOf(n, weights, sumScratch, column);
        passUndecoded(n, n);
        nextRow += n;
        counted = n;
        return passing;
    }

    /** {@link #passingOnes}: the test it was made for, and 1 for each dictionary entry passing it, else 0. */
    private ColumnTest onesTest;
    private int[] ones;

    /**
     * 1 for each dictionary entry that passes {@code test}, 0 for the others, decided for the whole dictionary at
     * once when it is no larger than the run being counted ({@code rows}); null for a larger dictionary (its entries
     * are decided as rows meet them).
     */
    private int[] passingOnes(ColumnTest test, int rows) {
        if (onesTest == test) {
            return ones;
        }
        int size = dictLongs != null ? dictLongs.length : dictBytes.length;
        if (size > rows) {
            return null;
        }
        int[] decided = new int[size];
        for (int id = 0; id < size; id++) {
            decided[id] = dictionaryEntryPasses(test, id) ? 1 : 0;
        }
        onesTest = test;
        ones = decided;
        return decided;
    }

    /** The rows the last {@link #countPassing} decided. */
    private int counted;

    int counted() {
        return counted;
    }

    /** The value {@link #peekLong} read last. */
    private long peekedLong;

    /**
     * Seeks to {@code row} and reads its value where it lies, consuming nothing (as {@link #peekPassesRun}): true when
     * the row holds one, then {@link #peekedLong}. INT64 and INT32 columns only (an INT32 read as a signed int).
     */
    boolean peekLong(long row) {
        seekRow(row);
        if (windowEnd == entry && windowEnd < entries) {
            refill(1);
        }
        int e = entry - entryBase;
        if (maxDef > 0 && defs[e] != maxDef) {
            return false;
        }
        int v = value + 1 - valueBase;
        if (dictionaryEncoded) {
            long x = dictLongs[ids[v]];
            peekedLong = type == PrimitiveTypeName.INT32 ? (int) x : x;
        } else {
            int at = valueBase + v;
            peekedLong = type == PrimitiveTypeName.INT32 ? (int) I32.get(data, dataStart + 4 * at)
                    : (long) I64.get(data, dataStart + 8 * at);
        }
        return true;
    }

    /** The value of the row {@link #peekLong} read last. */
    long peekedLong() {
        return peekedLong;
    }

    private static boolean nullPasses(ColumnTest test) {
        return test instanceof ColumnTest.BytesEqual b ? b.nullPasses() : ((ColumnTest.LongRange) test).nullPasses();
    }

    /**
     * Whether the window's entry {@code e}, whose value (if it has one) is the window's value {@code v}, passes
     * {@code test}.
     */
    private boolean passesAt(ColumnTest test, int e, int v) {
        if (maxDef > 0 && defs[e] != maxDef) {
            return nullPasses(test);
        }
        if (dictionaryEncoded) {
            byte[] known = verdicts(test);
            int id = ids[v];
            if (known[id] == UNKNOWN) {
                known[id] = dictionaryEntryPasses(test, id) ? PASSES : FAILS;
            }
            return known[id] == PASSES;
        }
        if (test instanceof ColumnTest.BytesEqual b) {
            int off = offsets[v];
            return b.matches(data, off, off + length(v));
        }
        ColumnTest.LongRange r = (ColumnTest.LongRange) test;
        int at = valueBase + v;
        long x = type == PrimitiveTypeName.INT32 ? (int) I32.get(data, dataStart + 4 * at)
                : (long) I64.get(data, dataStart + 8 * at);
        return r.matches(x);
    }

    /** Whether dictionary entry {@code id} passes {@code test} (a non-null value). */
    private boolean dictionaryEntryPasses(ColumnTest test, int id) {
        if (test instanceof ColumnTest.BytesEqual b) {
            byte[] d = dictBytes[id];
            return b.matches(d, 0, d.length);
        }
        long x = type == PrimitiveTypeName.INT32 ? (int) dictLongs[id] : dictLongs[id];
        return ((ColumnTest.LongRange) test).matches(x);
    }

    /**
     * The verdicts of {@code test} on this chunk's dictionary entries, decided once per entry: a test of a
     * dictionary-encoded row is then one array read, whatever the value's length. A cursor is asked at most a test
     * and a guard (a column holds at most one of each), so two slots; a further test takes the second slot over.
     */
    private byte[] verdicts(ColumnTest test) {
        for (int i = 0; i < verdictTests.length; i++) {
            if (verdictTests[i] == test) {
                return verdictsByTest[i];
            }
        }
        int slot = verdictTests[0] == null ? 0 : 1;
        int size = dictLongs != null ? dictLongs.length : dictBytes.length;
        verdictTests[slot] = test;
        verdictsByTest[slot] = new byte[size];
        return verdictsByTest[slot];
    }

    /** Whether {@link #peekPassesRun} can read {@code test} on {@code column}: its physical type; not repeated. */
    static boolean canTest(ColumnDescriptor column, ColumnTest test) {
        if (column.getMaxRepetitionLevel() > 0) {
            return false;
        }
        PrimitiveTypeName t = column.getPrimitiveType().getPrimitiveTypeName();
        if (test instanceof ColumnTest.BytesEqual) {
            return t == PrimitiveTypeName.BINARY || t == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
        }
        return t == PrimitiveTypeName.INT64 || t == PrimitiveTypeName.INT32;
    }

    /**
     * Values among entries {@code [from, to)} of the page, all in the window: from a prefix count built on the
     * window's first skip, so a sparse read (a few kept rows per page) does not count every skipped entry of every
     * column again.
     */
    private int defined(int from, int to) {
        if (from == to) {
            return 0;
        }
        int decoded = windowEnd - entryBase;
        if (!definedBeforeReady) {
            if (definedBefore.length < decoded + 1) {
                definedBefore = new int[Math.max(decoded + 1, definedBefore.length * 2)];
            }
            int n = 0;
            for (int i = 0; i < decoded; i++) {
                definedBefore[i] = n;
                n += ((defs[i] - maxDef) >>> 31) ^ 1; // 1 at the maximum level, 0 below it; without a branch
            }
            definedBefore[decoded] = n;
            definedBeforeReady = true;
        }
        return definedBefore[to - entryBase] - definedBefore[from - entryBase];
    }

    /** The definition level of the entry last returned by {@link #next}. */
    int definitionLevel() {
        return def;
    }

    /** The repetition level of the next entry (0 starts a new row), or -1 at the end of the chunk. */
    int peekRepetitionLevel() {
        if (entry == windowEnd && !advance()) {
            return -1;
        }
        return maxRep == 0 ? 0 : reps[entry - entryBase];
    }

    long int64() {
        if (dictionaryEncoded) {
            return dictLongs[ids[value - valueBase]];
        }
        return (long) I64.get(data, dataStart + 8 * value);
    }

    int int32() {
        if (dictionaryEncoded) {
            return (int) dictLongs[ids[value - valueBase]];
        }
        return (int) I32.get(data, dataStart + 4 * value);
    }

    float float32() {
        return Float.intBitsToFloat(int32());
    }

    double float64() {
        return Double.longBitsToDouble(int64());
    }

    boolean bool() {
        if (dictionaryEncoded) {
            return dictLongs[ids[value - valueBase]] != 0;
        }
        return booleans[value - valueBase] != 0;
    }

    /** A copy of the value's bytes (pages are released once read; records keep their own arrays). */
    byte[] bytes() {
        if (dictionaryEncoded) {
            byte[] d = dictBytes[ids[value - valueBase]];
            return d.clone();
        }
        int off = offsets[value - valueBase];
        return Arrays.copyOfRange(data, off, off + length(value - valueBase));
    }

    String string() {
        if (dictionaryEncoded) {
            int id = ids[value - valueBase];
            String s = dictStrings[id];
            if (s == null) {
                s = new String(dictBytes[id], StandardCharsets.UTF_8);
                dictStrings[id] = s;
            }
            return s;
        }
        int off = offsets[value - valueBase];
        return new String(data, off, length(value - valueBase), StandardCharsets.UTF_8);
    }

    /**
     * Appends the value to {@code out} as a {@link RowCodec} bytes field, straight from the page or the dictionary
     * (no array per value).
     */
    void copyBytesTo(RowCodec.Output out) {
        if (dictionaryEncoded) {
            byte[] d = dictBytes[ids[value - valueBase]];
            out.bytes(d, 0, d.length);
            return;
        }
        out.bytes(data, offsets[value - valueBase], length(value - valueBase));
    }

    /**
     * Appends the value to {@code out} as a {@link RowCodec} string field: the bytes {@code string()} would encode
     * back to. ASCII values (nearly all) are copied as they are; other values go through a String, so malformed
     * UTF-8 comes out replaced exactly as when the value is read as a String and encoded again.
     */
    void copyStringTo(RowCodec.Output out) {
        if (dictionaryEncoded) {
            int id = ids[value - valueBase];
            byte[] d = dictBytes[id];
            if (isAscii(d, 0, d.length)) {
                out.bytes(d, 0, d.length);
            } else {
                out.string(string());
            }
            return;
        }
        int off = offsets[value - valueBase];
        int len = length(value - valueBase);
        if (isAscii(data, off, len)) {
            out.bytes(data, off, len);
        } else {
            out.string(new String(data, off, len, StandardCharsets.UTF_8));
        }
    }

    /** The value's length in bytes (a byte-array column). */
    int byteLength() {
        return dictionaryEncoded ? dictBytes[ids[value - valueBase]].length : length(value - valueBase);
    }

    private static boolean isAscii(byte[] b, int off, int len) {
        int end = off + len;
        int i = off;
        // Eight bytes at a time: a byte is non-ASCII when its top bit is set.
        for (; i + 8 <= end; i += 8) {
            if (((long) I64.get(b, i) & 0x8080_8080_8080_8080L) != 0) {
                return false;
            }
        }
        for (; i < end; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** The length of the window's value {@code v}. */
    private int length(int v) {
        if (type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
            return typeLength;
        }
        return (int) I32.get(data, offsets[v] - 4);
    }

    private void readDictionary(DictionaryPage page) {
        Encoding e = page.getEncoding();
        if (e != Encoding.PLAIN && e != Encoding.PLAIN_DICTIONARY) {
            throw new IllegalStateException("column " + column + ": dictionary page encoding " + e + " not supported");
        }
        int n = page.getDictionarySize();
        Slice s = slice(page.getBytes());
        switch (type) {
            case INT32, FLOAT -> {
                dictLongs = new long[n];
                for (int i = 0; i < n; i++) {
                    dictLongs[i] = (int) I32.get(s.array, s.start + 4 * i);
                }
            }
            case INT64, DOUBLE -> {
                dictLongs = new long[n];
                for (int i = 0; i < n; i++) {
                    dictLongs[i] = (long) I64.get(s.array, s.start + 8 * i);
                }
            }
            case BOOLEAN -> {
                dictLongs = new long[n];
                for (int i = 0; i < n; i++) {
                    dictLongs[i] = (s.array[s.start + (i >>> 3)] >>> (i & 7)) & 1;
                }
            }
            case BINARY, FIXED_LEN_BYTE_ARRAY -> {
                dictBytes = new byte[n][];
                int p = s.start;
                for (int i = 0; i < n; i++) {
                    int len = type == PrimitiveTypeName.BINARY ? (int) I32.get(s.array, p) : typeLength;
                    if (type == PrimitiveTypeName.BINARY) {
                        p += 4;
                    }
                    dictBytes[i] = Arrays.copyOfRange(s.array, p, p + len);
                    p += len;
                }
                dictStrings = new String[n];
            }
            default -> throw new IllegalStateException("column " + column + ": type " + type + " not supported");
        }
        hasDictionary = true;
    }

    /** Moves to the next page (its first use decides how it is decoded, see {@link #startPage}); false at the end. */
    private boolean nextPage() {
        DataPage next = pages.readPage();
        if (next == null) {
            return false;
        }
        page = next;
        entries = next.getValueCount();
        entry = 0;
        value = -1;
        entryBase = 0;
        windowEnd = 0;
        valueBase = 0;
        valueEnd = 0;
        definedBeforeReady = false;
        rowStartsReady = false;
        if (next.getFirstRowIndex().isPresent()) {
            nextRow = next.getFirstRowIndex().get();
        }
        return true;
    }

    /**
     * Makes entry {@link #entry} readable: moves to the next page at the end of this one, decodes the next window of
     * a windowed page. False at the end of the chunk.
     */
    private boolean advance() {
        while (entry == entries) {
            if (!nextPage()) {
                return false;
            }
        }
        if (page != null) {
            startPage(false);
        }
        if (entry == windowEnd) {
            refill(SPARSE_WINDOW);
        }
        return true;
    }

    /**
     * Decodes the page just fetched on its first use: window by window when that use is a seek on a non-repeated
     * column whose levels and values stream (see the class comment), whole otherwise.
     */
    private void startPage(boolean seeking) {
        DataPage p = page;
        page = null;
        windowed = seeking && startWindowed(p);
        if (!windowed) {
            decodeWhole(p);
            windowEnd = entries;
            valueEnd = values;
        }
    }

    private void decodeWhole(DataPage page) {
        if (defs.length < entries) {
            defs = new int[Math.max(entries, defs.length * 2)];
        }
        if (reps.length < entries) {
            reps = new int[Math.max(entries, reps.length * 2)];
        }
        if (page instanceof DataPageV1 v1) {
            Slice s = slice(v1.getBytes());
            int p = s.start;
            if (maxRep > 0) {
                p = levels(v1.getRlEncoding(), s.array, p, s.end, maxRep, reps);
            }
            if (maxDef > 0) {
                p = levels(v1.getDlEncoding(), s.array, p, s.end, maxDef, defs);
            }
            values(v1.getValueEncoding(), s.array, p, s.end);
        } else if (page instanceof DataPageV2 v2) {
            if (maxRep > 0) {
                Slice r = slice(v2.getRepetitionLevels());
                LevelDecoding.rleHybrid(r.array, r.start, r.end, BytesUtils.getWidthFromMaxInt(maxRep), reps, entries);
            }
            if (maxDef > 0) {
                Slice d = slice(v2.getDefinitionLevels());
                LevelDecoding.rleHybrid(d.array, d.start, d.end, BytesUtils.getWidthFromMaxInt(maxDef), defs, entries);
            }
            Slice s = slice(v2.getData());
            values(v2.getDataEncoding(), s.array, s.start, s.end);
        } else {
            throw new IllegalStateException("column " + column + ": unknown page type " + page.getClass().getName());
        }
    }

    /**
     * Sets a page up to be decoded window by window ({@link #refill}, {@link #skipUndecoded}); false, touching
     * nothing, when its levels or values do not stream (old BIT_PACKED levels, an encoding decoded elsewhere).
     */
    private boolean startWindowed(DataPage p) {
        Encoding e = p instanceof DataPageV1 v1 ? v1.getValueEncoding()
                : p instanceof DataPageV2 v2 ? v2.getDataEncoding() : null;
        boolean dictionary = e == Encoding.PLAIN_DICTIONARY || e == Encoding.RLE_DICTIONARY;
        boolean rleBooleans = e == Encoding.RLE && type == PrimitiveTypeName.BOOLEAN;
        if (e == null || !(dictionary || rleBooleans || e == Encoding.PLAIN)
                || (dictionary && !hasDictionary) || type == PrimitiveTypeName.INT96
                || (maxDef > 0 && p instanceof DataPageV1 v1 && v1.getDlEncoding() != Encoding.RLE)
                || (maxRep > 0 && p instanceof DataPageV1 v1r && v1r.getRlEncoding() != Encoding.RLE)) {
            return false;
        }
        int width = BytesUtils.getWidthFromMaxInt(maxDef);
        Slice s;
        int pos;
        if (p instanceof DataPageV1 v1) {
            s = slice(v1.getBytes());
            pos = s.start;
            if (maxRep > 0) {
                pos = levelSection(s, pos, repetitionRuns, BytesUtils.getWidthFromMaxInt(maxRep), "repetition");
            }
            if (maxDef > 0) {
                pos = levelSection(s, pos, levelRuns, width, "definition");
            }
        } else {
            DataPageV2 v2 = (DataPageV2) p;
            if (maxRep > 0) {
                Slice r = slice(v2.getRepetitionLevels());
                repetitionRuns.reset(r.array, r.start, r.end, BytesUtils.getWidthFromMaxInt(maxRep));
            }
            if (maxDef > 0) {
                Slice d = slice(v2.getDefinitionLevels());
                levelRuns.reset(d.array, d.start, d.end, width);
            }
            s = slice(v2.getData());
            pos = s.start;
        }
        data = s.array;
        dataStart = pos;
        dataEnd = s.end;
        valueEncoding = e;
        dictionaryEncoded = dictionary;
        if (dictionary) {
            if (pos < s.end) {
                valueRuns.reset(s.array, pos + 1, s.end, s.array[pos] & 0xFF);
            } else {
                valueRuns.reset(s.array, pos, pos, 0); // no values: any id read fails
            }
        } else if (rleBooleans) {
            checkFits(pos, s.end, 4);
            int length = (int) I32.get(s.array, pos);
            valueRuns.reset(s.array, pos + 4, (int) Math.min(s.end, (long) pos + 4 + Math.max(0, length)), 1);
        } else {
            plainAt = pos;
        }
        return true;
    }

    /** Sets {@code runs} at a V1 page's length-prefixed RLE level section at {@code pos}; returns where it ends. */
    private int levelSection(Slice s, int pos, HybridRuns runs, int width, String levels) {
        checkFits(pos, s.end, 4);
        int length = (int) I32.get(s.array, pos);
        pos += 4;
        if (length < 0 || pos + length > s.end) {
            throw new IllegalStateException("column " + column + ": " + levels + " levels of " + length
                    + " bytes overrun their page");
        }
        runs.reset(s.array, pos, pos + length, width);
        return pos + length;
    }

    /**
     * Decodes the window of a windowed page from {@link #entry} on: at least {@code want} entries (to the page's
     * end), the decoded entries not read yet kept at the window's start.
     */
    private void refill(int want) {
        int end = (int) Math.min(entries, (long) entry + Math.max(want, SPARSE_WINDOW));
        int keptEntries = windowEnd - entry;
        int nextValue = value + 1;
        int keptValues = valueEnd - nextValue;
        int more = end - windowEnd;
        int present = more;
        if (maxRep > 0) {
            reps = kept(reps, entry - entryBase, keptEntries, keptEntries + more);
            repetitionRuns.read(reps, keptEntries, more);
        }
        if (maxDef > 0) {
            defs = kept(defs, entry - entryBase, keptEntries, keptEntries + more);
            levelRuns.read(defs, keptEntries, more);
            present = 0;
            for (int i = keptEntries; i < keptEntries + more; i++) {
                present += ((defs[i] - maxDef) >>> 31) ^ 1; // 1 at the maximum level, 0 below it; without a branch
            }
        }
        int from = nextValue - valueBase;
        int total = keptValues + present;
        if (dictionaryEncoded) {
            ids = kept(ids, from, keptValues, total);
            valueRuns.read(ids, keptValues, present);
            int size = dictLongs != null ? dictLongs.length : dictBytes.length;
            int outside = 0; // negative once an id is below 0 or above size - 1: one check for the whole window
            for (int i = keptValues; i < total; i++) {
                outside |= ids[i] | (size - 1 - ids[i]);
            }
            if (outside < 0) {
                for (int i = keptValues; i < total; i++) {
                    if (ids[i] < 0 || ids[i] >= size) {
                        throw new IllegalStateException("column " + column + ": dictionary id " + ids[i]
                                + " out of range (" + size + " entries)");
                    }
                }
            }
        } else {
            switch (type) {
                case BOOLEAN -> {
                    booleans = kept(booleans, from, keptValues, total);
                    if (valueEncoding == Encoding.RLE) {
                        valueRuns.read(booleans, keptValues, present);
                    } else {
                        checkFits(dataStart, dataEnd, ((long) valueEnd + present + 7) >>> 3);
                        for (int i = 0; i < present; i++) {
                            int at = valueEnd + i;
                            booleans[keptValues + i] = (data[dataStart + (at >>> 3)] >>> (at & 7)) & 1;
                        }
                    }
                }
                case BINARY -> {
                    offsets = kept(offsets, from, keptValues, total);
                    for (int i = 0; i < present; i++) {
                        offsets[keptValues + i] = plainAt + 4;
                        plainAt = nextPlain(plainAt, valueEnd + i);
                    }
                }
                case FIXED_LEN_BYTE_ARRAY -> {
                    offsets = kept(offsets, from, keptValues, total);
                    checkFits(dataStart, dataEnd, ((long) valueEnd + present) * typeLength);
                    for (int i = 0; i < present; i++) {
                        offsets[keptValues + i] = dataStart + (valueEnd + i) * typeLength;
                    }
                }
                case INT32, FLOAT -> checkFits(dataStart, dataEnd, 4L * (valueEnd + present));
                case INT64, DOUBLE -> checkFits(dataStart, dataEnd, 8L * (valueEnd + present));
                default -> throw new IllegalStateException("column " + column + ": type " + type + " not supported");
            }
        }
        entryBase = entry;
        valueBase = nextValue;
        windowEnd = end;
        valueEnd += present;
        definedBeforeReady = false;
        rowStartsReady = false;
    }

    /**
     * Skips {@code n} entries of a windowed page from the window's end ({@link #entry} is there) without decoding
     * them: the level runs count the values among them, which the value runs (or a walk over PLAIN lengths) skip;
     * fixed-width PLAIN values are addressed by index and need no skip. The window is then empty at the new entry.
     */
    private void skipUndecoded(int n) {
        int skipped = maxDef == 0 ? n : levelRuns.skipCounting(n, maxDef);
        if (dictionaryEncoded || (type == PrimitiveTypeName.BOOLEAN && valueEncoding == Encoding.RLE)) {
            valueRuns.skip(skipped);
        } else if (type == PrimitiveTypeName.BINARY) {
            for (int i = 0; i < skipped; i++) {
                plainAt = nextPlain(plainAt, valueEnd + i);
            }
        }
        passUndecoded(n, skipped);
    }

    /**
     * Moves past {@code passed} undecoded entries holding {@code values} values, read from the runs: the window
     * starts empty after them.
     */
    private void passUndecoded(int passed, int values) {
        value += values;
        entry += passed;
        entryBase = entry;
        windowEnd = entry;
        valueEnd += values;
        valueBase = valueEnd;
        definedBeforeReady = false;
        rowStartsReady = false;
    }

    /** Where the PLAIN BYTE_ARRAY value after the one at {@code at} (value {@code index} of the page) starts. */
    private int nextPlain(int at, int index) {
        if (at + 4 > dataEnd) {
            throw new IllegalStateException("column " + column + ": value " + index + " overruns its page");
        }
        int len = (int) I32.get(data, at);
        if (len < 0 || at + 4 + len > dataEnd) {
            throw new IllegalStateException("column " + column + ": value " + index + " of length " + len
                    + " overruns its page");
        }
        return at + 4 + len;
    }

    /**
     * {@code array} (or a larger copy) with its {@code count} entries from {@code from} moved to the start, able to
     * hold {@code capacity}.
     */
    private static int[] kept(int[] array, int from, int count, int capacity) {
        // twice what is asked at once: a window grown run by run reaches its size in one step, not by doubling
        int[] out = array.length >= capacity ? array : new int[Math.max(capacity * 2, array.length * 2)];
        if (count > 0) {
            System.arraycopy(array, from, out, 0, count);
        }
        return out;
    }

    /** Decodes one V1 level section; returns the position after it. */
    private int levels(Encoding e, byte[] buf, int p, int end, int max, int[] out) {
        int width = BytesUtils.getWidthFromMaxInt(max);
        if (e == Encoding.RLE) {
            int length = (int) I32.get(buf, p);
            p += 4;
            LevelDecoding.rleHybrid(buf, p, Math.min(end, p + length), width, out, entries);
            return p + length;
        }
        if (e == Encoding.BIT_PACKED) {
            return LevelDecoding.bitPacked(buf, p, width, out, entries);
        }
        throw new IllegalStateException("column " + column + ": level encoding " + e + " not supported");
    }

    private void values(Encoding e, byte[] buf, int p, int end) {
        int present = entries;
        if (maxDef > 0) {
            present = 0;
            for (int i = 0; i < entries; i++) {
                present += ((defs[i] - maxDef) >>> 31) ^ 1; // 1 at the maximum level, 0 below it; without a branch
            }
        }
        values = present;
        data = buf;
        dataStart = p;
        dataEnd = end;
        if (e == Encoding.PLAIN_DICTIONARY || e == Encoding.RLE_DICTIONARY) {
            if (!hasDictionary) {
                throw new IllegalStateException("column " + column + ": dictionary-encoded page without a dictionary");
            }
            dictionaryEncoded = true;
            if (ids.length < present) {
                ids = new int[Math.max(present, ids.length * 2)];
            }
            if (present > 0) {
                int width = buf[p] & 0xFF;
                LevelDecoding.rleHybrid(buf, p + 1, end, width, ids, present);
            }
            int size = type == PrimitiveTypeName.BINARY || type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                    ? dictBytes.length : dictLongs.length;
            int outside = 0; // negative once any id is below 0 or at or above size; one pass, no branch per id
            for (int i = 0; i < present; i++) {
                outside |= ids[i] | (size - 1 - ids[i]);
            }
            if (outside < 0) {
                for (int i = 0; i < present; i++) {
                    if (ids[i] < 0 || ids[i] >= size) {
                        throw new IllegalStateException("column " + column + ": dictionary id " + ids[i]
                                + " out of range (" + size + " entries)");
                    }
                }
            }
            return;
        }
        dictionaryEncoded = false;
        if (e == Encoding.RLE && type == PrimitiveTypeName.BOOLEAN) {
            booleansFit(present);
            int length = (int) I32.get(buf, p);
            LevelDecoding.rleHybrid(buf, p + 4, Math.min(end, p + 4 + length), 1, booleans, present);
            return;
        }
        if (e != Encoding.PLAIN) {
            throw new IllegalStateException("column " + column + ": value encoding " + e + " not supported");
        }
        switch (type) {
            case BOOLEAN -> {
                booleansFit(present);
                for (int i = 0; i < present; i++) {
                    booleans[i] = (buf[p + (i >>> 3)] >>> (i & 7)) & 1;
                }
            }
            case BINARY -> {
                if (offsets.length < present) {
                    offsets = new int[Math.max(present, offsets.length * 2)];
                }
                int q = p;
                for (int i = 0; i < present; i++) {
                    int len = (int) I32.get(buf, q);
                    if (len < 0 || q + 4 + len > end) {
                        throw new IllegalStateException("column " + column + ": value " + i + " of length " + len
                                + " overruns its page");
                    }
                    offsets[i] = q + 4;
                    q += 4 + len;
                }
            }
            case FIXED_LEN_BYTE_ARRAY -> {
                if (offsets.length < present) {
                    offsets = new int[Math.max(present, offsets.length * 2)];
                }
                checkFits(p, end, (long) present * typeLength);
                for (int i = 0; i < present; i++) {
                    offsets[i] = p + i * typeLength;
                }
            }
            case INT32, FLOAT -> checkFits(p, end, 4L * present);
            case INT64, DOUBLE -> checkFits(p, end, 8L * present);
            default -> throw new IllegalStateException("column " + column + ": type " + type + " not supported");
        }
    }

    private void checkFits(int p, int end, long bytes) {
        if (p + bytes > end) {
            throw new IllegalStateException("column " + column + ": page holds " + (end - p) + " value bytes, "
                    + bytes + " needed");
        }
    }

    private void booleansFit(int n) {
        if (booleans.length < n) {
            booleans = new int[Math.max(n, booleans.length * 2)];
        }
    }

    /** A page's bytes as an array range: the decompressed buffer's own array when it has one, else a copy. */
    private static Slice slice(BytesInput in) {
        try {
            ByteBuffer b = in.toByteBuffer();
            if (b.hasArray()) {
                int start = b.arrayOffset() + b.position();
                return new Slice(b.array(), start, start + b.remaining());
            }
            byte[] copy = new byte[b.remaining()];
            b.duplicate().get(copy);
            return new Slice(copy, 0, copy.length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Slice(byte[] array, int start, int end) {
    }
}
