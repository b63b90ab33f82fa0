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
}
