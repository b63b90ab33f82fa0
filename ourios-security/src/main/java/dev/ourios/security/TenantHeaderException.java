package dev.ourios.security;

/** An {@code X-Ourios-Tenant} value that does not decode: one line naming the header; HTTP 400. */
public final class TenantHeaderException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public TenantHeaderException(String message) {
        super(message);
    }
}
