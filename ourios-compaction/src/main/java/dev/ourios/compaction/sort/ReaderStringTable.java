package dev.ourios.compaction.sort;

import dev.ourios.parquet.rows.StringTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An input reader's string table: the low-cardinality values of the rows it encodes ({@link StringTable}), kept for
 * the whole compaction (a reader cannot know when the run buffer spills) and capped at {@code capBytes}, after which
 * new values are stored inline. The entries added since the last {@link #takeNew} travel to the compacting thread
 * with the batch whose rows first reference them, where {@link ReaderTableMirror} mirrors the table.
 *
 * <p>Confined to its reader thread.
 */
final class ReaderStringTable implements StringTable {
    private final long capBytes;
    private final List<String> strings = new ArrayList<>();
    private final List<byte[]> utf8 = new ArrayList<>();
    private final Map<String, Integer> ids = new HashMap<>();
    /** In front of {@link #ids}: the readers hand out one instance per dictionary entry (see InstanceMemo). */
    private final InstanceMemo instances = new InstanceMemo();
    private long bytes;
    private int taken;

    ReaderStringTable(long capBytes) {
        this.capBytes = capBytes;
    }

    @Override
    public int intern(String s) {
        int known = instances.get(s);
        if (known != InstanceMemo.ABSENT) {
            return known;
        }
        Integer id = ids.get(s);
        if (id == null) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            // The String + its UTF-16 array (upper bound) + its UTF-8 array + map entry + two list slots.
            long cost = 40 + 2L * s.length() + 16 + b.length + 72;
            if (bytes + cost > capBytes) {
                id = -1; // full: stored inline (final, the table never shrinks)
            } else {
                id = strings.size();
                strings.add(s);
                utf8.add(b);
                bytes += cost;
            }
            ids.put(s, id);
        }
        instances.put(s, id);
        return id;
    }

    @Override
    public byte[] utf8(int id) {
        return utf8.get(id);
    }

    @Override
    public String string(int id) {
        return strings.get(id);
    }

    /** Heap the table holds (bounded by the cap). */
    long bytes() {
        return bytes;
    }

    /** The entries added since the last call (ids continue from the previous ones), as immutable values. */
    Entries takeNew() {
        int n = strings.size();
        if (n == taken) {
            return Entries.NONE;
        }
        Entries e = new Entries(strings.subList(taken, n).toArray(new String[0]),
                utf8.subList(taken, n).toArray(new byte[0][]));
        taken = n;
        return e;
    }

    /** Consecutive table entries, each as a String and as its UTF-8 bytes. */
    record Entries(String[] strings, byte[][] utf8) {
        static final Entries NONE = new Entries(new String[0], new byte[0][]);
    }
}
