package dev.ourios.query;

import java.io.IOException;

/**
 * A row in a tenant's directory carries another tenant's id. Returning it would leak data across tenants, and
 * silently dropping it would hide a corrupt store, so the query fails.
 */
public final class TenantMismatchException extends IOException {
    private static final long serialVersionUID = 1L;

    public TenantMismatchException(String file, String expected, String actual) {
        super(file + ": row of tenant '" + actual + "' in the directory of tenant '" + expected
                + "'; the query is refused");
    }
}
