package dev.ourios.core;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The canonical percent-codec for tenant ids in paths (STORAGE.md §1): unreserved bytes
 * {@code A-Z a-z 0-9 - _ . ~} pass through, every other byte of the UTF-8 encoding becomes {@code %XX} in
 * upper-case hex. {@link #decode} accepts only that exact form, so one tenant has exactly one directory.
 *
 * <p>{@link #decodeLenient} reads the same encoding where a person or a client writes it (the tenant header of the
 * HTTP surfaces): strict about escapes, lenient about what need not be escaped.
 */
public final class TenantCodec {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /**
     * The longest tenant id, in bytes of UTF-8, that is accepted (STORAGE.md §1). Chosen so that every encoded
     * path component fits a file name of 255 bytes: {@code tenant_id=} (10 bytes) plus at most three bytes per
     * byte of the id (a percent escape) is at most 10 + 3 x 81 = 253.
     */
    public static final int MAX_TENANT_BYTES = 81;

    private TenantCodec() {
    }

    /** A tenant id: a non-empty string that survives UTF-8 (no lone surrogates). */
    public static boolean isTenantId(String s) {
        return s != null && !s.isEmpty() && new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)
                .equals(s);
    }

    public static String encode(String tenantId) {
        if (tenantId == null || tenantId.isEmpty()) {
            throw new IllegalArgumentException("tenant id must not be empty");
        }
        byte[] utf8 = tenantId.getBytes(StandardCharsets.UTF_8);
        // Reject lone surrogates: they do not round-trip through UTF-8.
        if (!new String(utf8, StandardCharsets.UTF_8).equals(tenantId)) {
            throw new IllegalArgumentException("tenant id is not valid Unicode: " + tenantId);
        }
        StringBuilder sb = new StringBuilder(utf8.length);
        for (byte b : utf8) {
            int u = b & 0xFF;
            if (isUnreserved(u)) {
                sb.append((char) u);
            } else {
                sb.append('%').append(HEX[u >> 4]).append(HEX[u & 0xF]);
            }
        }
        return sb.toString();
    }

    /**
     * Checks a tenant id that is about to be accepted (a request's, a command line's): non-empty, valid Unicode and
     * at most {@link #MAX_TENANT_BYTES} bytes of UTF-8. The message is bounded: it never repeats the id.
     *
     * @throws IllegalArgumentException the id cannot be accepted, saying why
     */
    public static String requireAcceptable(String tenantId) {
        if (tenantId == null || tenantId.isEmpty()) {
            throw new IllegalArgumentException("tenant id must not be empty");
        }
        byte[] utf8 = tenantId.getBytes(StandardCharsets.UTF_8);
        if (!new String(utf8, StandardCharsets.UTF_8).equals(tenantId)) {
            throw new IllegalArgumentException("tenant id is not valid Unicode");
        }
        if (utf8.length > MAX_TENANT_BYTES) {
            throw new IllegalArgumentException("tenant id is " + utf8.length + " bytes of UTF-8; the limit is "
                    + MAX_TENANT_BYTES + " bytes");
        }
        return tenantId;
    }

    /** Decodes a canonical encoding; empty when the input is not exactly what {@link #encode} produces. */
    public static Optional<String> decode(String encoded) {
        if (encoded == null || encoded.isEmpty()) {
            return Optional.empty();
        }
        ByteBuffer out = ByteBuffer.allocate(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%') {
                if (i + 2 >= encoded.length()) {
                    return Optional.empty(); // truncated escape
                }
                int hi = hexValue(encoded.charAt(i + 1));
                int lo = hexValue(encoded.charAt(i + 2));
                if (hi < 0 || lo < 0) {
                    return Optional.empty();
                }
                int u = (hi << 4) | lo;
                if (isUnreserved(u)) {
                    return Optional.empty(); // an escaped unreserved byte is not canonical
                }
                out.put((byte) u);
                i += 2;
            } else if (c < 0x80 && isUnreserved(c)) {
                out.put((byte) c);
            } else {
                return Optional.empty();
            }
        }
        out.flip();
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(out).toString();
            return Optional.of(s);
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /**
     * Decodes a tenant id written by hand or by a client: {@code %XX} (either case) is a byte, any other visible
     * ASCII character except {@code ,} stands for itself, and the bytes must be UTF-8. A {@code %} without two hex
     * digits, a space, a control or non-ASCII character, or a {@code ,} (what a proxy leaves when it joins two
     * headers into one) is refused with an {@link IllegalArgumentException} naming the position and what is wrong
     * there. The canonical encoding of every tenant id is accepted and decodes to that tenant id.
     */
    public static String decodeLenient(String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("empty; give a tenant id, percent-encoded UTF-8");
        }
        ByteBuffer bytes = ByteBuffer.allocate(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '%') {
                int hi = i + 1 < value.length() ? Character.digit(value.charAt(i + 1), 16) : -1;
                int lo = i + 2 < value.length() ? Character.digit(value.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0 || value.charAt(i + 1) > 0x7F || value.charAt(i + 2) > 0x7F) {
                    throw new IllegalArgumentException("malformed escape at position " + (i + 1) + " ('%' must be "
                            + "followed by two hex digits; a literal '%' is %25)");
                }
                bytes.put((byte) ((hi << 4) | lo));
                i += 2;
            } else if (c == ',') {
                throw new IllegalArgumentException("',' at position " + (i + 1) + ": two tenant headers joined into "
                        + "one? (a ',' in a tenant id is %2C)");
            } else if (c > 0x20 && c < 0x7F) {
                bytes.put((byte) c);
            } else {
                throw new IllegalArgumentException(String.format("character U+%04X at position %d must be "
                        + "percent-encoded (its UTF-8 bytes as %%XX)", (int) c, i + 1));
            }
        }
        bytes.flip();
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("the percent-encoded bytes are not UTF-8");
        }
    }

    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1; // lower-case hex is not canonical
    }

    private static boolean isUnreserved(int u) {
        return (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9')
                || u == '-' || u == '_' || u == '.' || u == '~';
    }
}
