package dev.ourios.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The SHA-256 of a token, as the keys file stores it ({@code sha256:<64 lower-case hex digits>}). Tokens are 256
 * random bits, so a fast unsalted hash is enough: nobody can search a space that large, and a slow password hash
 * would cost every request without adding anything.
 */
public final class TokenHash {
    public static final String PREFIX = "sha256:";
    private static final Pattern TEXT = Pattern.compile("sha256:[0-9a-f]{64}");
    private final byte[] digest;

    private TokenHash(byte[] digest) {
        this.digest = digest;
    }

    /** The hash of a presented token. */
    public static TokenHash of(String token) {
        try {
            return new TokenHash(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Parses the stored form; empty if it is not exactly {@code sha256:} and 64 lower-case hex digits. */
    public static Optional<TokenHash> parse(String text) {
        if (text == null || !TEXT.matcher(text).matches()) {
            return Optional.empty();
        }
        return Optional.of(new TokenHash(HexFormat.of().parseHex(text.substring(PREFIX.length()))));
    }

    /** Constant-time comparison: the time taken does not depend on where the digests differ. */
    public boolean matches(TokenHash other) {
        return MessageDigest.isEqual(digest, other.digest);
    }

    /** The stored form. */
    public String text() {
        return PREFIX + HexFormat.of().formatHex(digest);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TokenHash t && matches(t);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(digest);
    }

    @Override
    public String toString() {
        return text();
    }
}
