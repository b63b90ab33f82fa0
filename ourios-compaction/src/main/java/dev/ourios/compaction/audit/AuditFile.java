package dev.ourios.compaction.audit;

import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;

/** The events of one audit file as read, in the file's own schema (nothing projected away), and the file's name. */
record AuditFile(String name, MessageType schema, List<Group> rows) {
}
