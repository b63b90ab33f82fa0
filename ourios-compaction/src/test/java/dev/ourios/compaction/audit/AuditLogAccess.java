package dev.ourios.compaction.audit;

import org.apache.parquet.schema.MessageType;

/** Test access to the audit schema, package-private in {@link AuditLog}. */
public final class AuditLogAccess {
    private AuditLogAccess() {
    }

    public static MessageType schema() {
        return AuditLog.SCHEMA;
    }
}
