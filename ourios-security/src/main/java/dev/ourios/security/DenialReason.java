package dev.ourios.security;

import java.util.Locale;

/** Why a request was refused: its HTTP status and the value of the {@code ourios.auth.reason} metric attribute. */
public enum DenialReason {
    /** No {@code Authorization} header. */
    MISSING_KEY(401),
    /** An {@code Authorization} header that is not {@code Bearer <token>}. */
    NOT_BEARER(401),
    /** A token no key of the keys file has. */
    UNKNOWN_KEY(401),
    /** The token of a revoked key. */
    REVOKED_KEY(401),
    /** The key lacks the scope the endpoint needs. */
    SCOPE(403),
    /** The key may not use the tenant the request names. */
    TENANT(403),
    /** A header given twice, a tenant header that does not decode, or a tenant header a multi-tenant key needs. */
    BAD_HEADER(400);

    private final int status;

    DenialReason(int status) {
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** The metric attribute value. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
