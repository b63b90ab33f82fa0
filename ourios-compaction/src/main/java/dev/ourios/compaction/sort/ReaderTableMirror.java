package dev.ourios.compaction.sort;

import dev.ourios.parquet.rows.RowCodec;
import dev.ourios.parquet.rows.StringTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The compacting thread's copy of one input reader's {@link ReaderStringTable}, filled from the entries each batch
 * carries, and the map from its ids to the run buffer's: the rows a reader encodes reference its table, and the run
 * buffer copies them with references into its own ({@link RowCodec#translate}), looking each entry up in the buffer's
 * table once per buffer (the map is forgotten when the buffer is cleared at a spill) rather than once per row.
 *
 * <p>Confined to the compacting thread.
 */
final class ReaderTableMirror implements StringTable, RowCodec.Retarget {
    private static final int UNSET = Integer.MIN_VALUE;

    private final List<String> strings = new ArrayList<>();
    private final List<byte[]> utf8 = new ArrayList<>();
    private RowBuffer buffer;
    private int generation = -1;
    /** The buffer's id and sort id of each entry, valid where the entry's stamp is the current one. */
    private int[] bufferIds = new int[64];
    private int[] sortIds = new int[64];
    private int[] stamps = new int[64];
    private int stamp = 1;

    /** Appends the entries a batch carries (the reader's next ids). */
    void append(ReaderStringTable.Entries entries) {
        strings.addAll(Arrays.asList(entries.strings()));
        utf8.addAll(Arrays.asList(entries.utf8()));
        if (strings.size() > stamps.length) {
            int cap = Math.max(strings.size(), stamps.length * 2);
            bufferIds = Arrays.copyOf(bufferIds, cap);
            sortIds = Arrays.copyOf(sortIds, cap);
            stamps = Arrays.copyOf(stamps, cap);
        }
    }

    /** Maps ids into {@code b}'s table from now on (forgetting earlier answers if it is another or was cleared). */
    void bind(RowBuffer b) {
        if (b != buffer || b.generation() != generation) {
            buffer = b;
            generation = b.generation();
            stamp++;
        }
    }

    /** The bound buffer's id for entry {@code sourceId}, or -1 when its table is full (stored inline). */
    @Override
    public int idOf(int sourceId) {
        check(sourceId);
        return bufferIds[sourceId];
    }

    /** The bound buffer's sort id of the service name that is entry {@code sourceId}. */
    int sortIdOf(int sourceId) {
        check(sourceId);
        int id = sortIds[sourceId];
        if (id == UNSET) {
            id = buffer.serviceSortId(strings.get(sourceId));
            sortIds[sourceId] = id;
        }
        return id;
    }

    private void check(int sourceId) {
        if (stamps[sourceId] != stamp) {
            stamps[sourceId] = stamp;
            bufferIds[sourceId] = buffer.intern(strings.get(sourceId));
            sortIds[sourceId] = UNSET;
        }
    }

    @Override
    public int intern(String s) {
        return -1; // read-only: the reader fills the table
    }

    @Override
    public byte[] utf8(int id) {
        return utf8.get(id);
    }

    @Override
    public String string(int id) {
        return strings.get(id);
    }
}
