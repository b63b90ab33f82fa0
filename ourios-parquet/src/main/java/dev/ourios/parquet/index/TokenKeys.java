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
