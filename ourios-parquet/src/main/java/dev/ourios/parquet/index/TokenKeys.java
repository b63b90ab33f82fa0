package dev.ourios.parquet.index;

import dev.ourios.parquet.write.XxHash64;
import java.nio.charset.StandardCharsets;

/**
 * The keys the token index holds, as the 64-bit hashes its filters are built from and probed with
 * (docs/spec/storage.md, "Token index"): XXH64 (seed 0) of the UTF-8 bytes of
 * <ul>
 * <li>{@code "L\0" + token}: a token of the log line ({@link TextTokens});</li>
 * <li>{@code "A\0" + key + "\0" + value}: a log attribute {@code key} with the string value {@code value} (an
 * array's string elements, at any depth, each count);</li>
 * <li>{@code "R\0" + key + "\0" + value}: the same for a resource attribute.</li>
 * </ul>
 * A key or value holding a NUL could make two keys share bytes: that only adds a false positive, never hides one.
 */
public final class TokenKeys {
    private TokenKeys() {
    }

    public static long line(String token) {
        return hash("L\0" + token);
    }

    /**
     * Hands the key of every token of {@code line} (UTF-8) to {@code sink}, as {@link #line} of each of
     * {@link TextTokens#tokens} of the decoded line would, repeats included. An all-ASCII line, the usual case, is split
     * and lower-cased on its bytes (in ASCII the token characters are {@code [A-Za-z0-9_]} and lower-casing is
     * {@code A-Z -> a-z}), with no string made; any other line goes through {@link TextTokens}.
     */
    public static void lineTokens(byte[] line, java.util.function.LongConsumer sink) {
        for (byte b : line) {
            if (b < 0) {
                for (String t : TextTokens.tokens(new String(line, StandardCharsets.UTF_8))) {
                    sink.accept(line(t));
                }
                return;
            }
        }
        byte[] key = new byte[2 + line.length];
        key[0] = 'L';
        int n = 2;
        for (int i = 0; i <= line.length; i++) {
            int c = i < line.length ? line[i] : ' ';
            boolean token = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 'A' && c <= 'Z';
            if (token) {
                key[n++] = (byte) (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
            } else if (n > 2) {
                sink.accept(XxHash64.hash(key, 0, n));
                n = 2;
            }
        }
    }

    /**
     * The key of a (key, value) pair of the {@code kind} {@code 'A'} or {@code 'R'}: {@link #attribute} or
     * {@link #resource}, its bytes built in {@code scratch} (reused, grown as needed) rather than in two new strings
     * where key and value are ASCII, the usual case; the same hash either way.
     */
    static long pair(char kind, String key, String value, byte[][] scratch) {
        int n = 4 + key.length() + value.length();
        byte[] b = scratch[0];
        if (b == null || b.length < n) {
            b = new byte[Math.max(n, 256)];
            scratch[0] = b;
        }
        b[0] = (byte) kind;
        b[1] = 0;
        int at = 2;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c >= 0x80) {
                return hash(kind + "\0" + key + "\0" + value);
            }
            b[at++] = (byte) c;
        }
        b[at++] = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x80) {
                return hash(kind + "\0" + key + "\0" + value);
            }
            b[at++] = (byte) c;
        }
        return XxHash64.hash(b, 0, at);
    }

    public static long attribute(String key, String value) {
        return hash("A\0" + key + "\0" + value);
    }

    public static long resource(String key, String value) {
        return hash("R\0" + key + "\0" + value);
    }

    private static long hash(String key) {
        byte[] b = key.getBytes(StandardCharsets.UTF_8);
        return XxHash64.hash(b, 0, b.length);
    }
}
