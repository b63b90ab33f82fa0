package dev.ourios.parquet.rows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the fields of one {@link RowCodec} row in order. A string/bytes field is read with {@link #field()}, which
 * leaves its bytes at {@link #array()}[{@link #offset()}, + {@link #length()}) without copying; a referenced value
 * resolves to its table entry's array (the same instance every time, so callers may memoise by identity).
 * Reusable: {@link #reset} it per row.
 */
public final class RowCursor {
    private byte[] buf;
    private int pos;
    private StringTable strings;
    private byte[] array;
    private int offset;
    private int length;
    private int ref;

    public RowCursor reset(byte[] buf, int offset, StringTable strings) {
        this.buf = buf;
        this.pos = offset;
        this.strings = strings;
        return this;
    }

    public int position() {
        return pos;
    }

    public int i32() {
        byte[] p = buf;
        int i = pos;
        pos = i + 4;
        return (p[i] & 0xFF) | (p[i + 1] & 0xFF) << 8 | (p[i + 2] & 0xFF) << 16 | (p[i + 3] & 0xFF) << 24;
    }

    public long i64() {
        long lo = i32() & 0xFFFF_FFFFL;
        long hi = i32() & 0xFFFF_FFFFL;
        return lo | hi << 32;
    }

    /** Skips the rest of the sort-key prefix (effective time, origin), read after the service field. */
    public void skipKeyTail() {
        pos += RowCodec.KEY_TAIL_BYTES;
    }

    /** An optional number: {@code null} when absent. */
    public Long optional() {
        return i32() == 0 ? null : i64();
    }

    /** Reads an optional number's presence flag; when true the value follows ({@link #i64()}). */
    public boolean present() {
        return i32() != 0;
    }

    /** Reads a string/bytes field; false when it is null. */
    public boolean field() {
        int n = i32();
        if (n >= 0) {
            array = buf;
            offset = pos;
            length = n;
            ref = -1;
            pos += n;
            return true;
        }
        if (n == RowCodec.NULL) {
            array = null;
            length = 0;
            ref = -1;
            return false;
        }
        if (strings == null) {
            throw new IllegalStateException("BUG: row holds a string reference but no string table was given");
        }
        ref = -2 - n;
        array = strings.utf8(ref);
        offset = 0;
        length = array.length;
        return true;
    }

    public byte[] array() {
        return array;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    /** The table id of the last field read, or -1 when it was inline or null. */
    public int ref() {
        return ref;
    }

    /** Reads a string field as a String (null when it is null); a referenced value is the table's String. */
    public String string() {
        if (!field()) {
            return null;
        }
        return ref >= 0 ? strings.string(ref) : new String(array, offset, length, StandardCharsets.UTF_8);
    }

    byte[] bytes() {
        return field() ? Arrays.copyOfRange(array, offset, offset + length) : null;
    }
}
