package dev.ourios.compaction.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.parquet.LogFormatException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * The union schema of an audit day and the checks of an audit file's columns: extra columns (required ones made
 * optional, nested ones whole) are kept and their values survive the copy, with the event's digest unchanged; a
 * column two files type differently, a mistyped or missing known column and a column nested past the limit are
 * refused naming the file and the column.
 */
class AuditUnionTest {
    private static MessageType withExtras(Type... extras) {
        List<Type> fields = new ArrayList<>(AuditLog.SCHEMA.getFields());
        fields.addAll(List.of(extras));
        return new MessageType("audit_event", fields);
    }

    private static Group event(MessageType schema) {
        return new SimpleGroupFactory(schema).newGroup().append("tenant_id", "acme").append("timestamp", 7L)
                .append("event_kind", 3).append("event_type", "compaction");
    }

    @Test
    void extraColumnsAreKeptOptionalAndTheirValuesSurviveTheCopy() throws Exception {
        Type flag = Types.required(PrimitiveTypeName.BOOLEAN).named("flag");
        Type origin = Types.requiredGroup().required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType())
                .named("host").optional(PrimitiveTypeName.DOUBLE).named("load").named("origin");
        MessageType a = withExtras(flag, origin);
        Group g = event(a).append("flag", true);
        g.addGroup("origin").append("host", "h1").append("load", 0.5);
        MessageType plain = AuditLog.SCHEMA;
        Group h = event(plain).append("reason", "r");

        MessageType union = AuditUnion.of(List.of(new AuditFile("a", a, List.of(g)),
                new AuditFile("b", plain, List.of(h))));
        assertEquals(Repetition.OPTIONAL, union.getType("flag").getRepetition());
        assertEquals(Repetition.OPTIONAL, union.getType("origin").getRepetition());
        assertEquals(AuditLog.SCHEMA.getFieldCount() + 2, union.getFieldCount());
        for (Group src : List.of(g, h)) {
            Group copy = new SimpleGroupFactory(union).newGroup();
            AuditUnion.copy(src, copy);
            assertEquals(java.util.HexFormat.of().formatHex(EventDigest.of(src)),
                    java.util.HexFormat.of().formatHex(EventDigest.of(copy)));
        }
        Group lost = new SimpleGroupFactory(union).newGroup();
        AuditUnion.copy(h, lost);
        assertNotEquals(java.util.HexFormat.of().formatHex(EventDigest.of(g)),
                java.util.HexFormat.of().formatHex(EventDigest.of(lost)), "another event digests differently");
        assertSame(AuditLog.SCHEMA, AuditUnion.of(List.of(new AuditFile("b", plain, List.of(h)))),
                "no extra column: exactly the audit schema");
    }

    @Test
    void conflictingMistypedMissingAndTooDeepColumnsAreRefusedByName() {
        MessageType asLong = withExtras(Types.optional(PrimitiveTypeName.INT64).named("x"));
        MessageType asText = withExtras(Types.optional(PrimitiveTypeName.BINARY).named("x"));
        LogFormatException conflict = assertThrows(LogFormatException.class, () -> AuditUnion.of(List.of(
                new AuditFile("one.parquet", asLong, List.of()), new AuditFile("two.parquet", asText, List.of()))));
        assertTrue(conflict.getMessage().startsWith("two.parquet: column 'x'")
                && conflict.getMessage().contains("one.parquet has"), conflict.getMessage());

        List<Type> mistyped = new ArrayList<>(AuditLog.SCHEMA.getFields());
        mistyped.set(1, Types.required(PrimitiveTypeName.BINARY).named("timestamp"));
        LogFormatException type = assertThrows(LogFormatException.class,
                () -> AuditSchemaCheck.check(new MessageType("m", mistyped), "f.parquet"));
        assertTrue(type.getMessage().startsWith("f.parquet: column 'timestamp' has type"), type.getMessage());

        MessageType missing = new MessageType("m", AuditLog.SCHEMA.getFields().stream()
                .filter(f -> !f.getName().equals("event_type")).toList());
        LogFormatException absent = assertThrows(LogFormatException.class,
                () -> AuditSchemaCheck.check(missing, "f.parquet"));
        assertEquals("f.parquet: missing REQUIRED column 'event_type'", absent.getMessage());

        Type deep = Types.optional(PrimitiveTypeName.INT32).named("leaf");
        for (int i = 0; i < AuditSchemaCheck.MAX_DEPTH; i++) {
            deep = Types.optionalGroup().addField(deep).named("g" + i);
        }
        Type tooDeep = deep;
        LogFormatException nested = assertThrows(LogFormatException.class,
                () -> AuditSchemaCheck.check(withExtras(tooDeep), "f.parquet"));
        assertTrue(nested.getMessage().startsWith("f.parquet: column 'g" + (AuditSchemaCheck.MAX_DEPTH - 1)
                + "' nests more than"), nested.getMessage());
    }
}
