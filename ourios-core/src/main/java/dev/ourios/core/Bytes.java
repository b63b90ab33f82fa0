package dev.ourios.core;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Small helpers for byte arrays that have no home in the JDK. */
public final class Bytes {
    private static final HexFormat HEX = HexFormat.of();

    private Bytes() {
    }

    public static String hex(byte[] b) {
        return b == null ? null : HEX.formatHex(b);
    }

    public static byte[] fromHex(String s) {
        return HEX.parseHex(s);
    }

    /** Lexicographic comparison of unsigned bytes; null sorts first. */
    public static int compareUnsigned(byte[] a, byte[] b) {
        if (a == b) {
            return 0;
        }
        if (a == null) {
            return -1;
        }
        if (b == null) {
            return 1;
        }
        return java.util.Arrays.compareUnsigned(a, b);
    }

    static String printable(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
