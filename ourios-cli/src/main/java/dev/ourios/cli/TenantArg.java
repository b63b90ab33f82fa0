package dev.ourios.cli;

import dev.ourios.core.TenantCodec;

/** Validates a tenant id given on the command line, so a bad one fails as usage (exit 2) naming the flag. */
final class TenantArg {
    private TenantArg() {
    }

    static String require(String option, String tenant) {
        try {
            TenantCodec.encode(tenant);
            return tenant;
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    /**
     * As {@link #require}, for a tenant records are written for: also within {@link TenantCodec#MAX_TENANT_BYTES}
     * (a query may still name a longer id that an older version stored).
     */
    static String requireWritable(String option, String tenant) {
        try {
            return TenantCodec.requireAcceptable(tenant);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }
}
