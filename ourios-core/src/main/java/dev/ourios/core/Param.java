package dev.ourios.core;

import java.util.Arrays;

/**
 * One extracted template parameter: its type tag (0 IP, 1 UUID, 2 NUM, 3 HEX, 4 TS, 5 PATH, 6 STR, 7 OVERFLOW;
 * unknown ordinals are carried through unchanged) and its raw value bytes, which may be null.
 */
public record Param(int typeTag, byte[] value) {

    @Override
    public boolean equals(Object o) {
        return o instanceof Param p && p.typeTag == typeTag && Arrays.equals(p.value, value);
    }

    @Override
    public int hashCode() {
        return 31 * typeTag + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "Param[" + typeTag + ", " + (value == null ? "null" : Bytes.printable(value)) + "]";
    }
}
