package dev.ourios.compaction.sort;

import dev.ourios.core.LogRecord;
import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.StringTable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The sorter's run buffer: rows encoded as compact binary records in large pages, with the sort key in primitive
 * arrays. Compared with keeping {@code LogRecord} object graphs (~900 B a row by a safe estimate), a row costs its
 * encoded bytes plus {@link #KEY_BYTES} of key, index and sort slots, and the footprint is exact rather than
 * estimated: it is the pages, arrays and string table actually allocated, so the sort budget bounds the real heap.
 *
 * <p>Low-cardinality strings (tenant, service, scope, severity text, resource/scope attributes, schema URLs, event
 * name, extra column names) go into a string table and are stored as 4-byte ids; the reader hands out shared
 * instances for dictionary-encoded values, so most rows add nothing to the table.
 *
 * <p>Not thread-safe.
 */
final class RowBuffer implements StringTable {
    /**
     * Under half of G1's smallest region (1 MiB), so a page is never a humongous object: a humongous allocation can
     * start a GC cycle, and a buffer allocates pages all through run formation.
     */
    static final int PAGE_BYTES = (256 << 10) - 64;
    /**
     * Per row: service id (4), time (8), origin (8), location (8), length (4), and the sort's order (4), packed key
     * (8) and merge-sort scratch (4, for ties of equal time and for time ranges too wide to pack).
     */
    static final int KEY_BYTES = 48;
    private static final int NULL = -1;
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private final List<byte[]> pages = new ArrayList<>();
    /** Allocated page bytes (array headers included), kept as rows are added: the sorter asks after every row. */
    private long pageBytes;
    private byte[] page;
    private int pageFill;
    private int rows;
    private int[] serviceIds = new int[1024];
    private long[] times = new long[1024];
    private long[] origins = new long[1024];
    private long[] locations = new long[1024];
    private int[] lengths = new int[1024];
    /** The merge sort's scratch: allocated only when a sort has ties or a time range too wide to pack. */
    private int[] scratchOrder;
    /**
     * The row table (what rows reference; persisted with a spilled run), capped at {@link #tableCapBytes}: entries
     * {@code [0, tableSize)} of the view's arrays. Entries are only appended, arrays are
     * replaced (never rewritten) when they grow or the buffer is cleared, so a {@link #view()} taken earlier still
     * reads every entry that existed when it was taken, whatever this buffer does afterwards, on any thread the
     * rows referencing them were handed to.
     */
    private Table view = new Table(new String[64], new byte[64][]);
    private int tableSize;
    private final Map<String, Integer> stringIds = new HashMap<>();
    /** In front of {@link #stringIds}: what {@link #intern} returned for recent instances (-1 included). */
    private final InstanceMemo internedInstances = new InstanceMemo();
    private long tableBytes;
    private final long tableCapBytes;
    /** The sort's service ids (every distinct service of the buffer, uncapped: the sort needs all of them). */
    private final Map<String, Integer> serviceSortIds = new HashMap<>();
    /** In front of {@link #serviceSortIds}, likewise. */
    private final InstanceMemo serviceInstances = new InstanceMemo();
    private final List<byte[]> serviceUtf8 = new ArrayList<>();
    private long serviceBytes;
    private final RowCodec.Output enc = new RowCodec.Output(4096);
    private int generation;

    /**
     * {@code tableCapBytes} bounds the row table: once it holds that much, further new values are stored inline.
     * A spilled run carries its table, and the merge holds every open run's table, so the sorter caps each at a
     * share of the budget.
     */
    RowBuffer(long tableCapBytes) {
        this.tableCapBytes = tableCapBytes;
    }

    RowBuffer() {
        this(Long.MAX_VALUE);
    }

    int rows() {
        return rows;
    }

    /** Bytes held: pages, key arrays and both string tables, each costed at its allocated size. */
    long footprint() {
        return pageBytes + (long) serviceIds.length * KEY_BYTES + tableBytes + serviceBytes;
    }

    /** What the next row would add to the footprint by doubling the key arrays (0 while they have room). */
    long keyGrowthBytes() {
        return rows == serviceIds.length ? (long) serviceIds.length * KEY_BYTES : 0;
    }

    /** Heap of the row table (what a spilled run's table costs the merge). */
    long tableBytes() {
        return tableBytes;
    }

    /** The row table's UTF-8 values by id (for a spilled run to carry). */
    List<byte[]> table() {
        return List.of(Arrays.copyOf(view.utf8, tableSize));
    }

    /**
     * Appends {@code r}, whose {@link RowCodec#origin place in the partition} is {@code origin}; returns its encoded
     * length (what it will weigh in a spill run).
     */
    int add(LogRecord r, long origin) {
        enc.reset();
        int weight = RowCodec.encode(r, origin, this, enc);
        append(serviceSortId(r.serviceName()), r.effectiveTime(), origin);
        return weight;
    }

    /**
     * Appends the encoded row at {@code buf[offset]} (origin included), whose references are to {@code source}: a
     * copy with references into this buffer's table ({@link RowCodec#translate}), each source entry looked up here
     * once per buffer. Returns what the row will weigh in a spill run, as {@link #add(LogRecord, long)} does.
     */
    int add(byte[] buf, int offset, ReaderTableMirror source) {
        source.bind(this);
        enc.reset();
        int weight = RowCodec.translate(buf, offset, source, source, enc);
        int n = (int) INTS.get(buf, offset); // the service field: its length, or a null / reference marker
        int service;
        if (n == -1) {
            service = NULL;
        } else if (n < -1) {
            service = source.sortIdOf(-2 - n);
        } else {
            service = serviceSortId(new String(buf, offset + 4, n, StandardCharsets.UTF_8));
        }
        int tail = offset + 4 + Math.max(0, n);
        append(service, (long) LONGS.get(buf, tail), (long) LONGS.get(buf, tail + 8));
        return weight;
    }

    /** Copies the row in {@link #enc} into the pages and records its key. */
    private void append(int serviceId, long time, long origin) {
        byte[] row = enc.array();
        int len = enc.size();
        if (page == null || pageFill + len > page.length) {
            page = new byte[Math.max(PAGE_BYTES, len)];
            pages.add(page);
            pageBytes += 16 + page.length;
            pageFill = 0;
        }
        System.arraycopy(row, 0, page, pageFill, len);
        if (rows == serviceIds.length) {
            int cap = rows * 2;
            serviceIds = Arrays.copyOf(serviceIds, cap);
            times = Arrays.copyOf(times, cap);
            origins = Arrays.copyOf(origins, cap);
            locations = Arrays.copyOf(locations, cap);
            lengths = Arrays.copyOf(lengths, cap);
        }
        serviceIds[rows] = serviceId;
        times[rows] = time;
        origins[rows] = origin;
        locations[rows] = ((long) (pages.size() - 1) << 32) | pageFill;
        lengths[rows] = len;
        pageFill += len;
        rows++;
    }

    /** How many times the buffer was cleared: ids it handed out before belong to an earlier generation. */
    int generation() {
        return generation;
    }

    /**
     * Row indexes in sort order: service by UTF-8 bytes (null first), then effective time, then origin (input
     * ordinal, row ordinal), the contract's tie-break. Origins are distinct, so the order is total: it does not
     * depend on the order rows were added in.
     */
    int[] sortedOrder() {
        int[] rank = serviceRanks();
        // Counting sort by service rank (stable: each service's rows stay in insertion order), then each service's
        // rows by time, both on primitive arrays: a comparator merge sort over the whole buffer would cost the
        // compacting thread far more.
        int[] start = new int[rank.length + 1];
        for (int i = 0; i < rows; i++) {
            start[rank[serviceIds[i] + 1] + 1]++;
        }
        int largest = 0;
        for (int r = 1; r < start.length; r++) {
            largest = Math.max(largest, start[r]);
            start[r] += start[r - 1];
        }
        int[] order = new int[rows];
        int[] next = start.clone();
        for (int i = 0; i < rows; i++) {
            order[next[rank[serviceIds[i] + 1]]++] = i;
        }
        long[] keys = new long[largest];
        for (int r = 0; r + 1 < start.length; r++) {
            sortByTime(order, start[r], start[r + 1], keys, rank);
        }
        return order;
    }

    /**
     * Sorts {@code order[from, to)}, rows of one service in insertion order, by (time, insertion order): as one
     * {@code long} each, the time's offset from the smallest above the row index, when that fits in 63 bits (rows
     * of one partition span at most an hour: 42 bits), else by the stable merge sort.
     */
    private void sortByTime(int[] order, int from, int to, long[] keys, int[] rank) {
        int n = to - from;
        if (n < 2) {
            return;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int k = from; k < to; k++) {
            long t = times[order[k]];
            min = Math.min(min, t);
            max = Math.max(max, t);
        }
        int indexBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(rows - 1));
        long range = max - min; // negative when it overflows
        if (range < 0 || range >= 1L << (63 - indexBits)) {
            mergeSort(order, tmp(), from, to, rank);
            return;
        }
        for (int k = 0; k < n; k++) {
            int row = order[from + k];
            keys[k] = ((times[row] - min) << indexBits) | row;
        }
        Arrays.sort(keys, 0, n); // distinct keys (the row index is part of each): the order is total
        long mask = (1L << indexBits) - 1;
        for (int k = 0; k < n; k++) {
            order[from + k] = (int) (keys[k] & mask);
        }
        // Rows of equal time are in insertion order, which need not be origin order (inputs arrive interleaved):
        // sort each such tie by origin. Ties are rare and short in real logs (nanosecond times).
        int tie = 0;
        for (int k = 1; k <= n; k++) {
            if (k == n || keys[k] >>> indexBits != keys[tie] >>> indexBits) {
                if (k - tie > 1) {
                    mergeSort(order, tmp(), from + tie, from + k, rank);
                }
                tie = k;
            }
        }
    }

    /** The merge sort's scratch, one per sort (allocated only when a sort needs it). */
    private int[] tmp() {
        if (scratchOrder == null || scratchOrder.length < rows) {
            scratchOrder = new int[rows];
        }
        return scratchOrder;
    }

    LogRecord get(int row) {
        return RowCodec.decode(page(row), offset(row), this);
    }

    /** The page holding {@code row}; its bytes start at {@link #offset}. */
    byte[] page(int row) {
        return pages.get((int) (locations[row] >>> 32));
    }

    int offset(int row) {
        return (int) locations[row];
    }

    int length(int row) {
        return lengths[row];
    }

    void clear() {
        generation++;
        pages.clear();
        pageBytes = 0;
        page = null;
        pageFill = 0;
        rows = 0;
        serviceIds = new int[1024];
        times = new long[1024];
        origins = new long[1024];
        scratchOrder = null;
        locations = new long[1024];
        lengths = new int[1024];
        view = new Table(new String[64], new byte[64][]); // the old arrays stay as earlier views saw them
        tableSize = 0;
        stringIds.clear();
        internedInstances.clear();
        tableBytes = 0;
        serviceSortIds.clear();
        serviceInstances.clear();
        serviceUtf8.clear();
        serviceBytes = 0;
    }

    private int[] serviceRanks() {
        // rank[id + 1] for the sort's service ids; null (id -1) ranks before every name. Ids are distinct names.
        Integer[] byName = new Integer[serviceUtf8.size()];
        for (int i = 0; i < byName.length; i++) {
            byName[i] = i;
        }
        Arrays.sort(byName, (a, b) -> Arrays.compareUnsigned(serviceUtf8.get(a), serviceUtf8.get(b)));
        int[] rank = new int[byName.length + 1];
        for (int k = 0; k < byName.length; k++) {
            rank[byName[k] + 1] = k + 1;
        }
        return rank;
    }

    private int compare(int a, int b, int[] rank) {
        int c = Integer.compare(rank[serviceIds[a] + 1], rank[serviceIds[b] + 1]);
        if (c == 0) {
            c = Long.compare(times[a], times[b]);
        }
        return c != 0 ? c : Long.compare(origins[a], origins[b]);
    }

    /** Top-down merge sort of {@code a[from, to)} by the full key (service, time, origin). */
    private void mergeSort(int[] a, int[] tmp, int from, int to, int[] rank) {
        if (to - from < 16) {
            for (int i = from + 1; i < to; i++) { // insertion sort: stable
                int v = a[i];
                int j = i - 1;
                while (j >= from && compare(a[j], v, rank) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid, rank);
        mergeSort(a, tmp, mid, to, rank);
        if (compare(a[mid - 1], a[mid], rank) <= 0) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && compare(tmp[i], tmp[j], rank) <= 0)) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }

    int serviceSortId(String s) {
        if (s == null) {
            return NULL;
        }
        int known = serviceInstances.get(s);
        if (known != InstanceMemo.ABSENT) {
            return known;
        }
        Integer id = serviceSortIds.get(s);
        if (id == null) {
            id = serviceUtf8.size();
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            serviceUtf8.add(bytes);
            serviceSortIds.put(s, id);
            // The String (kept as the map key) + its UTF-16 array (upper bound) + UTF-8 array + entry + list slot.
            serviceBytes += 40 + 2L * s.length() + 16 + bytes.length + 64;
        }
        serviceInstances.put(s, id);
        return id;
    }

    // --- the string table -------------------------------------------------------------------------------------

    @Override
    public int intern(String s) {
        int known = internedInstances.get(s);
        if (known != InstanceMemo.ABSENT) {
            return known;
        }
        int id = lookUpOrAdd(s);
        // -1 (full) is final too: the table only grows until clear(), so a value it once refused it refuses again.
        internedInstances.put(s, id);
        return id;
    }

    private int lookUpOrAdd(String s) {
        Integer id = stringIds.get(s);
        if (id != null) {
            return id;
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        // String object + UTF-16 array (upper bound) + its UTF-8 array + map entry + two list slots.
        long cost = 40 + 2L * s.length() + 16 + bytes.length + 72;
        if (tableBytes + cost > tableCapBytes) {
            return -1; // full: stored inline
        }
        id = tableSize;
        if (id == view.strings.length) {
            view = new Table(Arrays.copyOf(view.strings, id * 2), Arrays.copyOf(view.utf8, id * 2));
        }
        view.strings[id] = s;
        view.utf8[id] = bytes;
        tableSize++;
        stringIds.put(s, id);
        tableBytes += cost;
        return id;
    }

    /**
     * The string table as the rows encoded so far reference it, for another thread or for after {@link #clear()}:
     * it keeps reading those entries (see {@link #view}); taking it costs nothing.
     */
    StringTable view() {
        return view;
    }

    @Override
    public byte[] utf8(int id) {
        return view.utf8[id];
    }

    @Override
    public String string(int id) {
        return view.strings[id];
    }

    /** Arrays of table entries; read-only to everyone but the buffer, which only fills slots beyond its views' rows. */
    private record Table(String[] strings, byte[][] utf8) implements StringTable {
        @Override
        public int intern(String value) {
            return -1;
        }

        @Override
        public byte[] utf8(int id) {
            return utf8[id];
        }

        @Override
        public String string(int id) {
            return strings[id];
        }
    }
}
