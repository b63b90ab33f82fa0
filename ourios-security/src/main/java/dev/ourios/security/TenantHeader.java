package dev.ourios.security;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The {@code X-Ourios-Tenant} header: the tenant id as percent-encoded UTF-8, so any tenant the store holds (any
 * non-empty valid Unicode string) travels in a header, which HTTP limits to visible ASCII.
 *
 * <p>{@link #encode} writes the store's canonical tenant encoding: {@code A-Z a-z 0-9 - _ . ~} as they are, every
 * other UTF-8 byte as {@code %XX} in upper-case hex ({@code tënant-🙂} → {@code t%C3%ABnant-%F0%9F%99%82}).
 * {@link #decode} is strict about escapes and lenient about what need not be escaped: {@code %XX} (either case) is a
 * byte, any other visible ASCII character except {@code ,} stands for itself (so {@code acme} and {@code b/c} work
 * as written), and the bytes must be UTF-8. A {@code %} without two hex digits, a space, a control or non-ASCII
 * character, or a {@code ,} (what a proxy leaves when it joins two headers into one) is refused, naming the
 * header. A tenant containing {@code %} or {@code ,} is therefore sent escaped ({@code %25}, {@code %2C}).
 */
public final class TenantHeader {
    public static final String NAME = "X-Ourios-Tenant";
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private TenantHeader() {
    }

    /** The header value for a tenant id. */
    public static String encode(String tenant) {
        if (!isTenantId(tenant)) {
            throw new IllegalArgumentException("not a tenant id (a non-empty string of valid Unicode)");
        }
        StringBuilder sb = new StringBuilder();
        for (byte b : tenant.getBytes(StandardCharsets.UTF_8)) {
            int u = b & 0xFF;
            if (isUnreserved(u)) {
                sb.append((char) u);
            } else {
                sb.append('%').append(HEX[u >> 4]).append(HEX[u & 0xF]);
            }
        }
        return sb.toString();
    }

    /** The tenant id a header value names; a refusal names the header, the position and what is wrong there. */
    public static String decode(String value) {
        if (value == null || value.isEmpty()) {
            throw refused("empty; give a tenant id, percent-encoded UTF-8");
        }
        ByteBuffer bytes = ByteBuffer.allocate(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '%') {
                int hi = i + 1 < value.length() ? Character.digit(value.charAt(i + 1), 16) : -1;
                int lo = i + 2 < value.length() ? Character.digit(value.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0 || value.charAt(i + 1) > 0x7F || value.charAt(i + 2) > 0x7F) {
                    throw refused("malformed escape at position " + (i + 1) + " ('%' must be followed by two hex "
                            + "digits; a literal '%' is %25)");
                }
                bytes.put((byte) ((hi << 4) | lo));
                i += 2;
            } else if (c == ',') {
                throw refused("',' at position " + (i + 1) + ": two tenant headers joined into one? (a ',' in a tenant "
                        + "id is %2C)");
            } else if (c > 0x20 && c < 0x7F) {
                bytes.put((byte) c);
            } else {
                throw refused(String.format("character U+%04X at position %d must be percent-encoded (its UTF-8 "
                        + "bytes as %%XX)", (int) c, i + 1));
            }
        }
        bytes.flip();
        String tenant;
        try {
            tenant = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw refused("the percent-encoded bytes are not UTF-8");
        }
        return tenant;
    }

    /** A tenant id: a non-empty string that survives UTF-8 (no lone surrogates). */
    public static boolean isTenantId(String s) {
        return s != null && !s.isEmpty() && new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)
                .equals(s);
    }

    private static TenantHeaderException refused(String what) {
        return new TenantHeaderException(NAME + ": " + what);
    }

    private static boolean isUnreserved(int u) {
        return (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9')
                || u == '-' || u == '_' || u == '.' || u == '~';
    }
}
