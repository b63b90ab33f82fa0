package dev.ourios.parquet.read;

import dev.ourios.core.Columns;
import dev.ourios.parquet.LogFormatException;
import dev.ourios.parquet.LogSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a file schema against the reader contract (STORAGE.md §2) before any row is read, and derives the schema
 * to request: every known column, every unknown top-level primitive column (kept as an extra, so compaction keeps
 * it); unknown nested columns are not requested (a LogRecord cannot carry them).
 */
final class SchemaCheck {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaCheck.class);

    private SchemaCheck() {
    }

    static MessageType requested(MessageType file, String name) throws LogFormatException {
        for (String required : Columns.REQUIRED) {
            if (!file.containsField(required)) {
                throw new LogFormatException(name + ": missing REQUIRED column '" + required + "'");
            }
        }
        List<Type> fields = new ArrayList<>();
        for (Type field : file.getFields()) {
            Type expected = LogSchema.baseField(field.getName());
            if (expected != null) {
                checkKnown(field, expected, name);
                fields.add(field);
            } else if (!LogSchema.extrasOf(new MessageType("m", field)).isEmpty()) {
                fields.add(field);
            } else {
                LOG.warn("{}: ignoring column '{}' of unsupported shape {}", name, field.getName(), field);
            }
        }
        return new MessageType(file.getName(), fields);
    }

    private static void checkKnown(Type field, Type expected, String name) throws LogFormatException {
        boolean ok;
        if (expected.isPrimitive()) {
            ok = field.isPrimitive() && field.getRepetition() != Repetition.REPEATED
                    && samePhysical(field.asPrimitiveType(), expected.asPrimitiveType());
        } else if (field.getName().equals(Columns.PARAMS)) {
            ok = isList(field) && paramsElementOk(element(field));
        } else {
            Type e = isList(field) ? element(field) : null;
            ok = e != null && e.isPrimitive()
                    && e.asPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY;
        }
        if (!ok) {
            throw new LogFormatException(name + ": column '" + field.getName() + "' has type " + field
                    + ", expected " + expected);
        }
    }

    private static boolean samePhysical(PrimitiveType a, PrimitiveType b) {
        return a.getPrimitiveTypeName() == b.getPrimitiveTypeName()
                && (a.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                        || a.getTypeLength() == b.getTypeLength());
    }

    /** A standard 3-level list: non-repeated group → one repeated group → one element. */
    private static boolean isList(Type t) {
        if (t.isPrimitive() || t.getRepetition() == Repetition.REPEATED) {
            return false;
        }
        GroupType g = t.asGroupType();
        if (g.getFieldCount() != 1 || g.getType(0).isPrimitive()
                || g.getType(0).getRepetition() != Repetition.REPEATED) {
            return false;
        }
        GroupType repeated = g.getType(0).asGroupType();
        return repeated.getFieldCount() == 1 && repeated.getType(0).getRepetition() != Repetition.REPEATED;
    }

    private static Type element(Type list) {
        return list.asGroupType().getType(0).asGroupType().getType(0);
    }

    private static boolean paramsElementOk(Type element) {
        if (element.isPrimitive()) {
            return false;
        }
        GroupType g = element.asGroupType();
        if (!g.containsField("type_tag") || !isPrimitive(g.getType("type_tag"),
                PrimitiveType.PrimitiveTypeName.INT32)) {
            return false;
        }
        return !g.containsField("value") || isPrimitive(g.getType("value"), PrimitiveType.PrimitiveTypeName.BINARY);
    }

    private static boolean isPrimitive(Type t, PrimitiveType.PrimitiveTypeName n) {
        return t.isPrimitive() && t.asPrimitiveType().getPrimitiveTypeName() == n
                && t.getRepetition() != Repetition.REPEATED;
    }
}
