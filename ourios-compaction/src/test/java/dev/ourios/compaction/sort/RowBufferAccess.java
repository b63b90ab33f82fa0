package dev.ourios.compaction.sort;

import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.parquet.rows.StringTable;
import java.util.List;

/**
 * The run buffer's package-private API, for the tests of other packages (the checksum tests hash rows encoded as
 * the sorter holds and hands them out): a {@link RowBuffer} of uncapped table, its rows and its string table.
 */
public final class RowBufferAccess implements StringTable {
    private final RowBuffer buffer = new RowBuffer();

    /** A row with every column set, edge values included (nulls, empty strings, NaN, non-ASCII). */
    public static LogRecord edge(String service, long time) {
        return LogRecord.builder("tenant/ü").timeUnixNano(time).observedTimeUnixNano(null).templateId(-1L)
                .templateVersion(-7).severityNumber(24).severityText(null).scopeName("").scopeVersion(null)
                .attributes("[]").resourceAttributes("[{\"key\":\"service.name\"}]").traceId(new byte[16])
                .spanId(null).flags(-1).eventName("e").bodyKind(1).body(new byte[] {(byte) 0xFF, 0, 1})
                .params(List.of(new Param(9, null), new Param(2, "42".getBytes())))
                .separators(List.of(new byte[0], " ".getBytes())).confidence(Float.NaN).lossyFlag(true)
                .scopeAttributes(null).resourceSchemaUrl("u").scopeSchemaUrl(null).serviceName(service)
                .extra("attr.a", "s").extra("attr.b", 5L).extra("attr.c", 2.5d).extra("x.bytes", new byte[] {1})
                .extra("x.int", 3).extra("x.float", 1.5f).extra("x.bool", true).extra("x.null", null).build();
    }

    /** See {@link RowBuffer#add(LogRecord, long)}. */
    public int add(LogRecord r, long origin) {
        return buffer.add(r, origin);
    }

    public int rows() {
        return buffer.rows();
    }

    public LogRecord get(int row) {
        return buffer.get(row);
    }

    /** The page holding {@code row}; its bytes start at {@link #offset}. */
    public byte[] page(int row) {
        return buffer.page(row);
    }

    public int offset(int row) {
        return buffer.offset(row);
    }

    public int length(int row) {
        return buffer.length(row);
    }

    /** See {@link RowBuffer#view()}. */
    public StringTable view() {
        return buffer.view();
    }

    public void clear() {
        buffer.clear();
    }

    @Override
    public int intern(String s) {
        return buffer.intern(s);
    }

    @Override
    public byte[] utf8(int id) {
        return buffer.utf8(id);
    }

    @Override
    public String string(int id) {
        return buffer.string(id);
    }
}
