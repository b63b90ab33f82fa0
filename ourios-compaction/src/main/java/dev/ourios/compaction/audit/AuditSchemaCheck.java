package dev.ourios.compaction.audit;

import dev.ourios.parquet.LogFormatException;
import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;

/**
 * An audit file's columns against the audit schema, by name, before any event is read (STORAGE.md §7.1): a column
 * the schema requires is present; a column the schema knows has its physical shape (another writer may mark it
 * optional or annotate it differently); a column it does not know is kept as it is, as data compaction keeps the
 * extra columns of a data file, unless it nests deeper than {@link #MAX_DEPTH} levels. A refusal is one line naming
 * the file and the column.
 */
final class AuditSchemaCheck {
    /** The columns every event has. */
    static final List<String> REQUIRED = AuditLog.SCHEMA.getFields().stream()
            .filter(f -> f.getRepetition() == Repetition.REQUIRED).map(Type::getName).toList();
    /** The deepest nesting of a column kept: far past any real writer's, well inside any stack. */
    static final int MAX_DEPTH = 32;

    private AuditSchemaCheck() {
    }

    static void check(MessageType file, String name) throws LogFormatException {
        for (String required : REQUIRED) {
            if (!file.containsField(required)) {
                throw new LogFormatException(name + ": missing REQUIRED column '" + required + "'");
            }
        }
        for (Type field : file.getFields()) {
            if (AuditLog.SCHEMA.containsField(field.getName())) {
                Type expected = AuditLog.SCHEMA.getType(field.getName());
                if (!sameShape(field, expected)) {
                    throw new LogFormatException(name + ": column '" + field.getName() + "' has type " + field
                            + ", expected " + expected);
                }
            } else if (depth(field) > MAX_DEPTH) {
                throw new LogFormatException(name + ": column '" + field.getName() + "' nests more than "
                        + MAX_DEPTH + " levels");
            }
        }
    }

    /**
     * The same physical shape: primitive of the same physical type, or group of the same field names with the same
     * shapes, neither repeated where the other is not. Optional and required are alike: every value read is copied.
     */
    static boolean sameShape(Type a, Type b) {
        if ((a.getRepetition() == Repetition.REPEATED) != (b.getRepetition() == Repetition.REPEATED)
                || a.isPrimitive() != b.isPrimitive()) {
            return false;
        }
        if (a.isPrimitive()) {
            return a.asPrimitiveType().getPrimitiveTypeName() == b.asPrimitiveType().getPrimitiveTypeName()
                    && a.asPrimitiveType().getTypeLength() == b.asPrimitiveType().getTypeLength();
        }
        GroupType ga = a.asGroupType();
        GroupType gb = b.asGroupType();
        if (ga.getFieldCount() != gb.getFieldCount()) {
            return false;
        }
        for (Type f : ga.getFields()) {
            if (!gb.containsField(f.getName()) || !sameShape(f, gb.getType(f.getName()))) {
                return false;
            }
        }
        return true;
    }

    /** How many levels a column nests (1 for a primitive), counted without recursion. */
    private static int depth(Type column) {
        int deepest = 0;
        List<Type> level = List.of(column);
        while (!level.isEmpty()) {
            deepest++;
            level = level.stream().filter(t -> !t.isPrimitive()).flatMap(t -> t.asGroupType().getFields().stream())
                    .toList();
        }
        return deepest;
    }
}
