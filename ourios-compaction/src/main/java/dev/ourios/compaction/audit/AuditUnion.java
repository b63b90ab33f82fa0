package dev.ourios.compaction.audit;

import dev.ourios.parquet.LogFormatException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * The schema an audit-day compaction writes: the audit schema, then every column an input has that it does not know,
 * in the order first met, optional (the other inputs lack it), as data compaction keeps a data file's extra columns.
 * With no such column it is exactly the audit schema. A column two inputs give different shapes is refused, naming
 * the column and both files.
 */
final class AuditUnion {
    private AuditUnion() {
    }

    static MessageType of(List<AuditFile> files) throws LogFormatException {
        Map<String, Type> extras = new LinkedHashMap<>();
        Map<String, String> from = new LinkedHashMap<>();
        for (AuditFile f : files) {
            for (Type field : f.schema().getFields()) {
                if (AuditLog.SCHEMA.containsField(field.getName())) {
                    continue;
                }
                Type optional = field.getRepetition() == Repetition.REQUIRED ? optional(field) : field;
                Type earlier = extras.putIfAbsent(field.getName(), optional);
                if (earlier == null) {
                    from.put(field.getName(), f.name());
                } else if (!earlier.equals(optional)) {
                    throw new LogFormatException(f.name() + ": column '" + field.getName() + "' has type " + field
                            + ", " + from.get(field.getName()) + " has " + earlier);
                }
            }
        }
        if (extras.isEmpty()) {
            return AuditLog.SCHEMA;
        }
        List<Type> fields = new ArrayList<>(AuditLog.SCHEMA.getFields());
        fields.addAll(extras.values());
        return new MessageType(AuditLog.SCHEMA.getName(), fields);
    }

    private static Type optional(Type field) {
        if (field.isPrimitive()) {
            PrimitiveType p = field.asPrimitiveType();
            return Types.optional(p.getPrimitiveTypeName()).length(p.getTypeLength())
                    .as(p.getLogicalTypeAnnotation()).named(p.getName());
        }
        return Types.optionalGroup().addFields(field.asGroupType().getFields().toArray(new Type[0]))
                .as(field.getLogicalTypeAnnotation()).named(field.getName());
    }

    /** Copies every value of {@code src} into {@code dst}, a group of the union, by name at every level. */
    static void copy(Group src, Group dst) {
        for (Type field : src.getType().getFields()) {
            String name = field.getName();
            for (int i = 0; i < src.getFieldRepetitionCount(name); i++) {
                if (field.isPrimitive()) {
                    switch (field.asPrimitiveType().getPrimitiveTypeName()) {
                        case INT64 -> dst.append(name, src.getLong(name, i));
                        case INT32 -> dst.append(name, src.getInteger(name, i));
                        case BOOLEAN -> dst.append(name, src.getBoolean(name, i));
                        case FLOAT -> dst.append(name, src.getFloat(name, i));
                        case DOUBLE -> dst.append(name, src.getDouble(name, i));
                        default -> dst.append(name, src.getBinary(name, i));
                    }
                } else {
                    copy(src.getGroup(name, i), dst.addGroup(name));
                }
            }
        }
    }
}
