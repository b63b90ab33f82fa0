package dev.ourios.compaction;

import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
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
 * encoded bytes plus 28 B of key, index and sort slots, and the footprint is exact rather than estimated: it is the pages,
 * arrays and string table actually allocated, so the sort budget bounds the real heap.
 *
 * <p>Low-cardinality strings (tenant, service, scope, severity text, resource/scope attributes, schema URLs, event
 * name, extra column names) go into a string table and are stored as 4-byte ids; the reader hands out shared
 * instances for dictionary-encoded values, so most rows add nothing to the table.
 *
 * <p>Not thread-safe.
 */
final class RowBuffer {
    static final int PAGE_BYTES = 1 << 20;
    /** Per row: service id (4), time (8), location (8), and the two int slots of the sort (4 + 4). */
    static final int KEY_BYTES = 28;
    private static final int NULL = -1;

    private final List<byte[]> pages = new ArrayList<>();
    /** Allocated page bytes (array headers included), kept as rows are added: the sorter asks after every row. */
    private long pageBytes;
    private byte[] page;
    private int pageFill;
    private int rows;
    private int[] serviceIds = new int[1024];
    private long[] times = new long[1024];
    private long[] locations = new long[1024];
    private final List<String> strings = new ArrayList<>();
    private final Map<String, Integer> stringIds = new HashMap<>();
    private long stringBytes;
    private final Encoder enc = new Encoder();

    int rows() {
        return rows;
    }

    /** Bytes held: pages, key arrays and the string table, each costed at its allocated size. */
    long footprint() {
        return pageBytes + (long) serviceIds.length * KEY_BYTES + stringBytes;
    }

    void add(LogRecord r) {
        enc.reset();
        encode(r, enc);
        byte[] row = enc.bytes();
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
            locations = Arrays.copyOf(locations, cap);
        }
        serviceIds[rows] = id(r.serviceName());
        times[rows] = r.effectiveTime();
        locations[rows] = ((long) (pages.size() - 1) << 32) | pageFill;
        pageFill += len;
        rows++;
    }

    /**
     * Row indexes in sort order: service by UTF-8 bytes (null first), then effective time; a stable sort, so equal
     * keys keep insertion order, which is (input ordinal, row ordinal).
     */
    int[] sortedOrder() {
        int[] rank = serviceRanks();
        int[] order = new int[rows];
        for (int i = 0; i < rows; i++) {
            order[i] = i;
        }
        int[] tmp = new int[rows];
        mergeSort(order, tmp, 0, rows, rank);
        return order;
    }

    LogRecord get(int row) {
        long loc = locations[row];
        return decode(pages.get((int) (loc >>> 32)), (int) loc);
    }

    void clear() {
        pages.clear();
        pageBytes = 0;
        page = null;
        pageFill = 0;
        rows = 0;
        serviceIds = new int[1024];
        times = new long[1024];
        locations = new long[1024];
        strings.clear();
        stringIds.clear();
        stringBytes = 0;
    }

    private int[] serviceRanks() {
        // rank[id] for the string ids used as services; null (id -1) ranks before every name.
        List<Integer> used = new ArrayList<>();
        boolean[] seen = new boolean[strings.size()];
        for (int i = 0; i < rows; i++) {
            int id = serviceIds[i];
            if (id >= 0 && !seen[id]) {
                seen[id] = true;
                used.add(id);
            }
        }
        List<byte[]> utf8 = new ArrayList<>();
        for (int i = 0; i < strings.size(); i++) {
            utf8.add(seen[i] ? strings.get(i).getBytes(StandardCharsets.UTF_8) : null);
        }
        used.sort((a, b) -> Arrays.compareUnsigned(utf8.get(a), utf8.get(b)));
        int[] rank = new int[strings.size() + 1];
        int r = 1;
        for (int k = 0; k < used.size(); k++) {
            if (k > 0 && Arrays.equals(utf8.get(used.get(k - 1)), utf8.get(used.get(k)))) {
                rank[used.get(k) + 1] = rank[used.get(k - 1) + 1];
            } else {
                rank[used.get(k) + 1] = r++;
            }
        }
        return rank; // index id + 1, so the null id -1 maps to slot 0 with rank 0
    }

    private int compare(int a, int b, int[] rank) {
        int c = Integer.compare(rank[serviceIds[a] + 1], rank[serviceIds[b] + 1]);
        return c != 0 ? c : Long.compare(times[a], times[b]);
    }

    /** Stable top-down merge sort of {@code a[from, to)}. */
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

    private int id(String s) {
        if (s == null) {
            return NULL;
        }
        Integer id = stringIds.get(s);
        if (id == null) {
            id = strings.size();
            strings.add(s);
            stringIds.put(s, id);
            // String object + UTF-16 array (upper bound) + map entry + list slot.
            stringBytes += 40 + 2L * s.length() + 64;
        }
        return id;
    }

    // --- encoding -------------------------------------------------------------------------------------------

    private void encode(LogRecord r, Encoder e) {
        e.i32(id(r.tenantId()));
        e.i64(r.templateId());
        e.i32(r.templateVersion());
        e.i64(r.timeUnixNano());
        e.boxed(r.observedTimeUnixNano());
        e.boxed(r.effectiveTimeUnixNano());
        e.i32(r.severityNumber());
        e.i32(id(r.severityText()));
        e.i32(id(r.scopeName()));
        e.i32(id(r.scopeVersion()));
        e.string(r.attributes());
        e.i32(r.droppedAttributesCount());
        e.i32(id(r.resourceAttributes()));
        e.bytes(r.traceId());
        e.bytes(r.spanId());
        e.i32(r.flags());
        e.i32(id(r.eventName()));
        e.i32(r.bodyKind());
        e.bytes(r.body());
        e.i32(r.params().size());
        for (Param p : r.params()) {
            e.i32(p.typeTag());
            e.bytes(p.value());
        }
        e.i32(r.separators().size());
        for (byte[] s : r.separators()) {
            e.bytes(s);
        }
        e.i32(Float.floatToRawIntBits(r.confidence()));
        e.i32(r.lossyFlag() ? 1 : 0);
        e.i32(id(r.scopeAttributes()));
        e.i32(id(r.resourceSchemaUrl()));
        e.i32(id(r.scopeSchemaUrl()));
        e.i32(id(r.serviceName()));
        e.i32(r.extras().size());
        for (Map.Entry<String, Object> x : r.extras().entrySet()) {
            e.i32(id(x.getKey()));
            Object v = x.getValue();
            if (v == null) {
                e.i32(0);
            } else if (v instanceof String s) {
                e.i32(1);
                e.string(s);
            } else if (v instanceof byte[] b) {
                e.i32(2);
                e.bytes(b);
            } else if (v instanceof Long l) {
                e.i32(3);
                e.i64(l);
            } else if (v instanceof Integer i) {
                e.i32(4);
                e.i32(i);
            } else if (v instanceof Double d) {
                e.i32(5);
                e.i64(Double.doubleToRawLongBits(d));
            } else if (v instanceof Float f) {
                e.i32(6);
                e.i32(Float.floatToRawIntBits(f));
            } else if (v instanceof Boolean b) {
                e.i32(7);
                e.i32(b ? 1 : 0);
            } else {
                throw new IllegalArgumentException("BUG: unsupported extra value type " + v.getClass());
            }
        }
    }

    private LogRecord decode(byte[] p, int offset) {
        Decoder d = new Decoder(p, offset);
        String tenant = str(d.i32());
        long templateId = d.i64();
        int templateVersion = d.i32();
        long time = d.i64();
        Long observed = d.boxed();
        Long effective = d.boxed();
        int severity = d.i32();
        String severityText = str(d.i32());
        String scopeName = str(d.i32());
        String scopeVersion = str(d.i32());
        String attributes = d.string();
        int dropped = d.i32();
        String resource = str(d.i32());
        byte[] traceId = d.bytes();
        byte[] spanId = d.bytes();
        int flags = d.i32();
        String eventName = str(d.i32());
        int bodyKind = d.i32();
        byte[] body = d.bytes();
        int np = d.i32();
        List<Param> params = new ArrayList<>(np);
        for (int i = 0; i < np; i++) {
            params.add(new Param(d.i32(), d.bytes()));
        }
        int ns = d.i32();
        List<byte[]> separators = new ArrayList<>(ns);
        for (int i = 0; i < ns; i++) {
            separators.add(d.bytes());
        }
        float confidence = Float.intBitsToFloat(d.i32());
        boolean lossy = d.i32() != 0;
        String scopeAttributes = str(d.i32());
        String resourceSchemaUrl = str(d.i32());
        String scopeSchemaUrl = str(d.i32());
        String service = str(d.i32());
        int nx = d.i32();
        SortedMap<String, Object> extras = new TreeMap<>();
        for (int i = 0; i < nx; i++) {
            String name = str(d.i32());
            int tag = d.i32();
            extras.put(name, switch (tag) {
                case 0 -> null;
                case 1 -> d.string();
                case 2 -> d.bytes();
                case 3 -> d.i64();
                case 4 -> d.i32();
                case 5 -> Double.longBitsToDouble(d.i64());
                case 6 -> Float.intBitsToFloat(d.i32());
                case 7 -> d.i32() != 0;
                default -> throw new IllegalStateException("BUG: extra tag " + tag);
            });
        }
        return new LogRecord(tenant, templateId, templateVersion, time, observed, effective, severity, severityText,
                scopeName, scopeVersion, attributes, dropped, resource, traceId, spanId, flags, eventName, bodyKind,
                body, params, separators, confidence, lossy, scopeAttributes, resourceSchemaUrl, scopeSchemaUrl,
                service, extras);
    }

    private String str(int id) {
        return id == NULL ? null : strings.get(id);
    }

    /** A growable little-endian byte writer, reused across rows. */
    private static final class Encoder {
        private byte[] buf = new byte[4096];
        private int size;

        void reset() {
            size = 0;
        }

        byte[] bytes() {
            return buf;
        }

        int size() {
            return size;
        }

        private void ensure(int n) {
            if (size + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
            }
        }

        void i32(int v) {
            ensure(4);
            buf[size++] = (byte) v;
            buf[size++] = (byte) (v >>> 8);
            buf[size++] = (byte) (v >>> 16);
            buf[size++] = (byte) (v >>> 24);
        }

        void i64(long v) {
            i32((int) v);
            i32((int) (v >>> 32));
        }

        void boxed(Long v) {
            if (v == null) {
                i32(0);
            } else {
                i32(1);
                i64(v);
            }
        }

        void bytes(byte[] b) {
            if (b == null) {
                i32(NULL);
                return;
            }
            i32(b.length);
            ensure(b.length);
            System.arraycopy(b, 0, buf, size, b.length);
            size += b.length;
        }

        void string(String s) {
            bytes(s == null ? null : s.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Reads what {@link Encoder} wrote. */
    private static final class Decoder {
        private final byte[] p;
        private int pos;

        Decoder(byte[] p, int pos) {
            this.p = p;
            this.pos = pos;
        }

        int i32() {
            int v = (p[pos] & 0xFF) | (p[pos + 1] & 0xFF) << 8 | (p[pos + 2] & 0xFF) << 16 | (p[pos + 3] & 0xFF) << 24;
            pos += 4;
            return v;
        }

        long i64() {
            long lo = i32() & 0xFFFF_FFFFL;
            long hi = i32() & 0xFFFF_FFFFL;
            return lo | hi << 32;
        }

        Long boxed() {
            return i32() == 0 ? null : i64();
        }

        byte[] bytes() {
            int n = i32();
            if (n == NULL) {
                return null;
            }
            byte[] b = Arrays.copyOfRange(p, pos, pos + n);
            pos += n;
            return b;
        }

        String string() {
            int n = i32();
            if (n == NULL) {
                return null;
            }
            String s = new String(p, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }
    }
}
