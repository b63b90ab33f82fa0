package dev.ourios.parquet;

import static org.apache.parquet.schema.LogicalTypeAnnotation.intType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.listType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.stringType;
import static org.apache.parquet.schema.LogicalTypeAnnotation.timestampType;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BOOLEAN;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.DOUBLE;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FLOAT;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT32;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64;

import dev.ourios.core.Columns;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * The Parquet schema of a log file (STORAGE.md §2): the base columns in declared order, then
 * {@code resource.service.name}, then any extra top-level primitive columns sorted by name.
 *
 * <p>Extra columns are configured promoted columns ({@code resource.<key>}, {@code attr.<key>}) or columns a newer
 * writer added; they are always OPTIONAL (schema evolution only ever adds OPTIONAL columns), and their values travel
 * in {@code LogRecord.extras()}: String for STRING binary, byte[] for other binary and fixed-length binary, and
 * Long / Integer / Double / Float / Boolean for the numeric and boolean types.
 */
public final class LogSchema {
    /** Root name of files we write; readers never rely on it (the reference writer uses "arrow_schema"). */
    public static final String ROOT = "log_record";
    /** Leaf paths of the two list columns, as parquet-java addresses them. */
    public static final String PARAMS_TYPE_TAG = "params.list.element.type_tag";
    public static final String PARAMS_VALUE = "params.list.element.value";
    public static final String SEPARATORS_ELEMENT = "separators.list.element";

    private static final Set<PrimitiveTypeName> EXTRA_TYPES = Set.of(BINARY, FIXED_LEN_BYTE_ARRAY, INT64, INT32, DOUBLE,
            FLOAT, BOOLEAN);
    private static final List<Type> BASE_FIELDS = baseFields();
    private static final PrimitiveType SERVICE_NAME_FIELD = stringColumn(Columns.SERVICE_NAME);

    private final MessageType messageType;
    private final SortedMap<String, PrimitiveType> extras;

    private LogSchema(SortedMap<String, PrimitiveType> extras) {
        this.extras = Collections.unmodifiableSortedMap(extras);
        List<Type> fields = new ArrayList<>(BASE_FIELDS);
        fields.add(SERVICE_NAME_FIELD);
        fields.addAll(extras.values());
        this.messageType = new MessageType(ROOT, fields);
    }

    /** The current schema with no extra columns. */
    public static LogSchema base() {
        return new LogSchema(new TreeMap<>());
    }

    /**
     * The current schema plus {@code extras} (keyed by column name). Each extra is made OPTIONAL; a name that is a
     * base column, or a type a LogRecord extra cannot carry (INT96, groups), is rejected.
     */
    public static LogSchema of(SortedMap<String, PrimitiveType> extras) {
        SortedMap<String, PrimitiveType> normalized = new TreeMap<>();
        for (Map.Entry<String, PrimitiveType> e : extras.entrySet()) {
            String name = e.getKey();
            PrimitiveType t = e.getValue();
            if (isKnown(name)) {
                throw new IllegalArgumentException("extra column '" + name + "' collides with a base column");
            }
            if (!name.equals(t.getName())) {
                throw new IllegalArgumentException("extra column key '" + name + "' differs from its type's name '"
                        + t.getName() + "'");
            }
            if (!EXTRA_TYPES.contains(t.getPrimitiveTypeName())) {
                throw new IllegalArgumentException("extra column '" + name + "' has unsupported type " + t);
            }
            normalized.put(name, asOptional(t));
        }
        return new LogSchema(normalized);
    }

    /**
     * The schema a compaction of files with these schemas writes: every base column, {@code resource.service.name},
     * and every extra column any input has, sorted by name. Nothing any input has is dropped: an unknown nested
     * column (which a LogRecord cannot carry) or an extra whose type differs between inputs is an error.
     */
    public static LogSchema union(Collection<MessageType> fileSchemas) {
        SortedMap<String, PrimitiveType> extras = new TreeMap<>();
        for (MessageType schema : fileSchemas) {
            for (Type field : schema.getFields()) {
                if (isKnown(field.getName())) {
                    continue;
                }
                if (!field.isPrimitive()) {
                    throw new IllegalArgumentException("unknown nested column '" + field.getName()
                            + "' cannot be carried through compaction");
                }
                PrimitiveType t = asOptional(field.asPrimitiveType());
                PrimitiveType previous = extras.putIfAbsent(t.getName(), t);
                if (previous != null && !previous.equals(t)) {
                    throw new IllegalArgumentException("extra column '" + t.getName() + "' has conflicting types: "
                            + previous + " vs " + t);
                }
            }
        }
        return of(extras);
    }

    /** The extra (unknown top-level primitive) columns of a file schema, as they would be carried. */
    public static SortedMap<String, PrimitiveType> extrasOf(MessageType fileSchema) {
        SortedMap<String, PrimitiveType> out = new TreeMap<>();
        for (Type field : fileSchema.getFields()) {
            if (!isKnown(field.getName()) && field.isPrimitive()
                    && EXTRA_TYPES.contains(field.asPrimitiveType().getPrimitiveTypeName())) {
                out.put(field.getName(), asOptional(field.asPrimitiveType()));
            }
        }
        return out;
    }

    /** True for the base columns and {@code resource.service.name}, which LogRecord models directly. */
    public static boolean isKnown(String column) {
        return Columns.BASE.contains(column) || column.equals(Columns.SERVICE_NAME);
    }

    /** An OPTIONAL STRING column, the type of promoted string columns. */
    public static PrimitiveType stringColumn(String name) {
        return Types.optional(BINARY).as(stringType()).named(name);
    }

    /** An OPTIONAL INT64 column, the type of promoted integer columns. */
    public static PrimitiveType int64Column(String name) {
        return Types.optional(INT64).named(name);
    }

    /** An OPTIONAL DOUBLE column, the type of promoted floating-point columns. */
    public static PrimitiveType doubleColumn(String name) {
        return Types.optional(DOUBLE).named(name);
    }

    /**
     * Whether {@code value} has the Java type an extra of column type {@code column} carries (see the class
     * comment); the writer rejects any other, and the readers produce only these.
     */
    public static boolean extraFits(PrimitiveType column, Object value) {
        return switch (column.getPrimitiveTypeName()) {
            case BINARY -> value instanceof byte[] || (value instanceof String && isStringColumn(column));
            case FIXED_LEN_BYTE_ARRAY -> value instanceof byte[] b && b.length == column.getTypeLength();
            case INT64 -> value instanceof Long;
            case INT32 -> value instanceof Integer;
            case DOUBLE -> value instanceof Double;
            case FLOAT -> value instanceof Float;
            case BOOLEAN -> value instanceof Boolean;
            default -> false;
        };
    }

    /** Whether {@code column} is annotated STRING: its extras are Strings (other binary extras are byte[]). */
    public static boolean isStringColumn(PrimitiveType column) {
        return column.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation;
    }

    public MessageType messageType() {
        return messageType;
    }

    /** Extra columns in schema order (sorted by name). */
    public SortedMap<String, PrimitiveType> extras() {
        return extras;
    }

    private static PrimitiveType asOptional(PrimitiveType t) {
        if (t.getRepetition() == Repetition.OPTIONAL) {
            return t;
        }
        if (t.getRepetition() == Repetition.REPEATED) {
            throw new IllegalArgumentException("extra column '" + t.getName() + "' is repeated");
        }
        return Types.optional(t.getPrimitiveTypeName()).length(t.getTypeLength())
                .as(t.getLogicalTypeAnnotation()).named(t.getName());
    }

    private static List<Type> baseFields() {
        LogicalTypeAnnotation ts = timestampType(true, TimeUnit.NANOS);
        List<Type> f = new ArrayList<>();
        f.add(Types.required(BINARY).as(stringType()).named(Columns.TENANT_ID));
        // Signed: the same 64 bits, but a type every engine has (Iceberg and Spark have no unsigned 64-bit integer and
        // refuse such a column). Readers accept INT(64, unsigned) files too (storage.md, section 2.1).
        f.add(Types.required(INT64).as(intType(64, true)).named(Columns.TEMPLATE_ID));
        f.add(Types.required(INT32).as(intType(32, true)).named(Columns.TEMPLATE_VERSION));
        f.add(Types.required(INT64).as(ts).named(Columns.TIME));
        f.add(Types.optional(INT64).as(ts).named(Columns.OBSERVED_TIME));
        f.add(Types.optional(INT64).as(ts).named(Columns.EFFECTIVE_TIME));
        f.add(Types.required(INT32).as(intType(16, true)).named(Columns.SEVERITY_NUMBER));
        f.add(stringColumn(Columns.SEVERITY_TEXT));
        f.add(stringColumn(Columns.SCOPE_NAME));
        f.add(stringColumn(Columns.SCOPE_VERSION));
        f.add(Types.required(BINARY).as(stringType()).named(Columns.ATTRIBUTES));
        f.add(Types.required(INT32).as(intType(32, true)).named(Columns.DROPPED_ATTRIBUTES_COUNT));
        f.add(Types.required(BINARY).as(stringType()).named(Columns.RESOURCE_ATTRIBUTES));
        f.add(Types.optional(FIXED_LEN_BYTE_ARRAY).length(16).named(Columns.TRACE_ID));
        f.add(Types.optional(FIXED_LEN_BYTE_ARRAY).length(8).named(Columns.SPAN_ID));
        f.add(Types.required(INT32).as(intType(32, true)).named(Columns.FLAGS));
        f.add(stringColumn(Columns.EVENT_NAME));
        f.add(Types.required(INT32).as(intType(16, true)).named(Columns.BODY_KIND));
        f.add(Types.optional(BINARY).named(Columns.BODY));
        f.add(Types.requiredGroup().as(listType())
                .repeatedGroup()
                .requiredGroup()
                .required(INT32).named("type_tag")
                .optional(BINARY).named("value")
                .named("element")
                .named("list")
                .named(Columns.PARAMS));
        f.add(Types.requiredGroup().as(listType())
                .repeatedGroup()
                .required(BINARY).named("element")
                .named("list")
                .named(Columns.SEPARATORS));
        f.add(Types.required(FLOAT).named(Columns.CONFIDENCE));
        f.add(Types.required(BOOLEAN).named(Columns.LOSSY_FLAG));
        f.add(stringColumn(Columns.SCOPE_ATTRIBUTES));
        f.add(stringColumn(Columns.RESOURCE_SCHEMA_URL));
        f.add(stringColumn(Columns.SCOPE_SCHEMA_URL));
        for (int i = 0; i < f.size(); i++) {
            Objects.requireNonNull(Columns.BASE.get(i).equals(f.get(i).getName()) ? f.get(i) : null,
                    "LogSchema and Columns.BASE disagree at " + i);
        }
        return List.copyOf(f);
    }

    /**
     * The declared base field of this name (for type checks by the reader), or null.
     *
     * <p>Internal to ourios-parquet: public only for the {@code read} package's schema check.
     */
    public static Type baseField(String name) {
        if (name.equals(Columns.SERVICE_NAME)) {
            return SERVICE_NAME_FIELD;
        }
        int i = Columns.BASE.indexOf(name);
        return i < 0 ? null : BASE_FIELDS.get(i);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogSchema s && s.messageType.equals(messageType);
    }

    @Override
    public int hashCode() {
        return messageType.hashCode();
    }

    @Override
    public String toString() {
        return messageType.toString();
    }
}
