package dev.ourios.security;

import dev.ourios.core.TenantCodec;

/**
 * The {@code X-Ourios-Tenant} header: the tenant id as percent-encoded UTF-8, so any tenant the store holds (any
 * non-empty valid Unicode string) travels in a header, which HTTP limits to visible ASCII.
 *
 * <p>The encoding is the store's own, {@link TenantCodec}: {@link #encode} writes the canonical form
 * ({@code tënant-🙂} → {@code t%C3%ABnant-%F0%9F%99%82}); {@link #decode} reads it as
 * {@link TenantCodec#decodeLenient} does, strict about escapes and lenient about what need not be escaped
 * ({@code acme} and {@code b/c} work as written). A tenant containing {@code %} or {@code ,} is therefore sent
 * escaped ({@code %25}, {@code %2C}). A refusal names the header.
 */
public final class TenantHeader {
    public static final String NAME = "X-Ourios-Tenant";

    private TenantHeader() {
    }

    /** The header value for a tenant id. */
    public static String encode(String tenant) {
        if (!isTenantId(tenant)) {
            throw new IllegalArgumentException("not a tenant id (a non-empty string of valid Unicode)");
        }
        return TenantCodec.encode(tenant);
    }

    /** The tenant id a header value names; a refusal names the header, the position and what is wrong there. */
    public static String decode(String value) {
        try {
            return TenantCodec.decodeLenient(value);
        } catch (IllegalArgumentException e) {
            throw new TenantHeaderException(NAME + ": " + e.getMessage());
        }
    }

    /** A tenant id: a non-empty string that survives UTF-8 (no lone surrogates). */
    public static boolean isTenantId(String s) {
        return TenantCodec.isTenantId(s);
    }
}
