package dev.ourios.parquet;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;

/**
 * Assembles {@link LogRecord}s from one {@link ColumnCursor} per needed leaf column: the same records, field for
 * field, as {@link LogRecordMaterializer} builds through parquet-java's record reader (differential tests in
 * {@code ColumnarRowsTest}), at a fraction of the CPU — a compaction's input readers spent most of their time in
 * parquet-java's per-value assembly state machine and level decoders (docs/benchmarks.md, session 6).
 *
 * <p>Used for unfiltered reads (compaction, full scans) of files whose column chunks use only the encodings
 * {@link ColumnCursor} decodes ({@link #supports}); filtered reads keep parquet-java's reader, which also skips
 * pages through the column index.
 *
 * <p>Lists follow the record reader's rules: a {@code params} element is added whenever the element struct is
 * defined (null fields read as 0 / null); a {@code separators} element only when its value is non-null; a null list
 * reads as an empty one.
 */
final class ColumnarRows {
    private static final Set<Kind> EXTRAS = EnumSet.of(Kind.EXTRA_STRING, Kind.EXTRA_BYTES, Kind.EXTRA_INT64,
            Kind.EXTRA_INT32, Kind.EXTRA_DOUBLE, Kind.EXTRA_FLOAT, Kind.EXTRA_BOOLEAN);

    private final RowState row = new RowState();
    private final Field[] fields;
    private final ColumnDescriptor[] leaves;
    private final ColumnCursor[] cursors;
    /** The schema leaves out REQUIRED columns: they read as empty strings (see {@link #readRow}). */
    private final boolean partial;
    /** Whether a row reads a list column ({@code params}, {@code separators}) or an extra column. */
    private final boolean lists;
    private final boolean extraColumns;

    ColumnarRows(MessageType requested) {
        this(requested, false);
    }

    ColumnarRows(MessageType requested, boolean partial) {
        this.partial = partial;
        List<Field> plan = new ArrayList<>();
        List<ColumnDescriptor> needed = new ArrayList<>();
        for (Type field : requested.getFields()) {
            String name = field.getName();
            if (name.equals(Columns.PARAMS)) {
                GroupType element = listElement(field).asGroupType();
                String[] elementPath = listElementPath(field);
                int elementDef = requested.getMaxDefinitionLevel(elementPath);
                int typeTag = leaf(requested, needed, append(elementPath, "type_tag"));
                int value = element.containsField("value") ? leaf(requested, needed, append(elementPath, "value")) : -1;
                plan.add(new Field(Kind.PARAMS, name, typeTag, value, elementDef));
            } else if (name.equals(Columns.SEPARATORS)) {
                plan.add(new Field(Kind.SEPARATORS, name, leaf(requested, needed, listElementPath(field)), -1, 0));
            } else {
                plan.add(new Field(kindOf(field.asPrimitiveType()), name, leaf(requested, needed, new String[] {name}),
                        -1, 0));
            }
        }
        this.fields = plan.toArray(new Field[0]);
        this.lists = plan.stream().anyMatch(f -> f.kind == Kind.PARAMS || f.kind == Kind.SEPARATORS);
        this.extraColumns = plan.stream().anyMatch(f -> EXTRAS.contains(f.kind));
        this.leaves = needed.toArray(new ColumnDescriptor[0]);
        this.cursors = new ColumnCursor[leaves.length];
    }

    /**
     * True when every column chunk of {@code blocks} that the requested schema reads uses only encodings
     * {@link ColumnCursor} decodes, and every top-level primitive is non-repeated.
     */
    static boolean supports(MessageType requested, List<BlockMetaData> blocks) {
        for (Type field : requested.getFields()) {
            if (field.isPrimitive() && field.getRepetition() == Repetition.REPEATED) {
                return false;
            }
            if (field.isPrimitive() && field.asPrimitiveType().getPrimitiveTypeName()
                    == PrimitiveType.PrimitiveTypeName.INT96) {
                return false;
            }
        }
        for (BlockMetaData block : blocks) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                if (requested.containsPath(chunk.getPath().toArray())
                        && !ColumnCursor.SUPPORTED.containsAll(chunk.getEncodings())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Starts reading a row group: one cursor per needed column, positioned before its first entry. */
    void startGroup(PageReadStore pages) {
        for (int i = 0; i < leaves.length; i++) {
            cursors[i] = new ColumnCursor(leaves[i], pages.getPageReader(leaves[i]));
        }
    }

    /** The next row of the current row group (the caller counts rows). */
    LogRecord read() {
        return read(-1);
    }

    /**
     * Row {@code index} of the current row group (rows are visited in increasing order; the rows between are
     * skipped, and so are pages the page store left out). With a schema that leaves out REQUIRED columns (a
     * {@link RowPrefilter}'s columns only), those read as empty strings: the record is a partial one.
     */
    LogRecord readRow(long index) {
        return read(index);
    }

    private LogRecord read(long index) {
        RowState r = row;
        if (partial) {
            r.reset(lists, extraColumns);
        } else {
            r.reset();
        }
        if (index >= 0) {
            for (int i = 0; i < cursors.length; i++) {
                cursors[i].seekRow(index);
            }
        }
        for (Field f : fields) {
            ColumnCursor c = cursors[f.leaf];
            switch (f.kind) {
                case PARAMS -> readParams(f, c, r);
                case SEPARATORS -> {
                    do {
                        if (c.next()) {
                            r.separators.add(c.bytes());
                        }
                    } while (c.peekRepetitionLevel() > 0);
                }
                default -> {
                    if (c.next()) {
                        set(f, c, r);
                    }
                }
            }
        }
        if (partial) {
            r.tenantId = r.tenantId == null ? "" : r.tenantId;
            r.attributes = r.attributes == null ? "" : r.attributes;
            r.resourceAttributes = r.resourceAttributes == null ? "" : r.resourceAttributes;
        }
        return r.build();
    }

    private void readParams(Field f, ColumnCursor typeTag, RowState r) {
        ColumnCursor value = f.second >= 0 ? cursors[f.second] : null;
        do {
            boolean tagPresent = typeTag.next();
            boolean valuePresent = value != null && value.next();
            if (typeTag.definitionLevel() >= f.elementDefinitionLevel) {
                r.params.add(new Param(tagPresent ? typeTag.int32() : 0, valuePresent ? value.bytes() : null));
            }
        } while (typeTag.peekRepetitionLevel() > 0);
    }

    private static void set(Field f, ColumnCursor c, RowState r) {
        switch (f.kind) {
            case TENANT -> r.tenantId = c.string();
            case TEMPLATE_ID -> r.templateId = c.int64();
            case TEMPLATE_VERSION -> r.templateVersion = c.int32();
            case TIME -> r.timeUnixNano = c.int64();
            case OBSERVED_TIME -> r.observedTimeUnixNano = c.int64();
            case EFFECTIVE_TIME -> r.effectiveTimeUnixNano = c.int64();
            case SEVERITY_NUMBER -> r.severityNumber = c.int32();
            case SEVERITY_TEXT -> r.severityText = c.string();
            case SCOPE_NAME -> r.scopeName = c.string();
            case SCOPE_VERSION -> r.scopeVersion = c.string();
            case ATTRIBUTES -> r.attributes = c.string();
            case DROPPED_ATTRIBUTES_COUNT -> r.droppedAttributesCount = c.int32();
            case RESOURCE_ATTRIBUTES -> r.resourceAttributes = c.string();
            case TRACE_ID -> r.traceId = c.bytes();
            case SPAN_ID -> r.spanId = c.bytes();
            case FLAGS -> r.flags = c.int32();
            case EVENT_NAME -> r.eventName = c.string();
            case BODY_KIND -> r.bodyKind = c.int32();
            case BODY -> r.body = c.bytes();
            case CONFIDENCE -> r.confidence = c.float32();
            case LOSSY_FLAG -> r.lossyFlag = c.bool();
            case SCOPE_ATTRIBUTES -> r.scopeAttributes = c.string();
            case RESOURCE_SCHEMA_URL -> r.resourceSchemaUrl = c.string();
            case SCOPE_SCHEMA_URL -> r.scopeSchemaUrl = c.string();
            case SERVICE_NAME -> r.serviceName = c.string();
            case EXTRA_STRING -> r.extras.put(f.name, c.string());
            case EXTRA_BYTES -> r.extras.put(f.name, c.bytes());
            case EXTRA_INT64 -> r.extras.put(f.name, c.int64());
            case EXTRA_INT32 -> r.extras.put(f.name, c.int32());
            case EXTRA_DOUBLE -> r.extras.put(f.name, c.float64());
            case EXTRA_FLOAT -> r.extras.put(f.name, c.float32());
            case EXTRA_BOOLEAN -> r.extras.put(f.name, c.bool());
            case PARAMS, SEPARATORS -> throw new IllegalStateException("BUG: list column " + f.name + " read as flat");
        }
    }

    private static Kind kindOf(PrimitiveType t) {
        return switch (t.getName()) {
            case Columns.TENANT_ID -> Kind.TENANT;
            case Columns.TEMPLATE_ID -> Kind.TEMPLATE_ID;
            case Columns.TEMPLATE_VERSION -> Kind.TEMPLATE_VERSION;
            case Columns.TIME -> Kind.TIME;
            case Columns.OBSERVED_TIME -> Kind.OBSERVED_TIME;
            case Columns.EFFECTIVE_TIME -> Kind.EFFECTIVE_TIME;
            case Columns.SEVERITY_NUMBER -> Kind.SEVERITY_NUMBER;
            case Columns.SEVERITY_TEXT -> Kind.SEVERITY_TEXT;
            case Columns.SCOPE_NAME -> Kind.SCOPE_NAME;
            case Columns.SCOPE_VERSION -> Kind.SCOPE_VERSION;
            case Columns.ATTRIBUTES -> Kind.ATTRIBUTES;
            case Columns.DROPPED_ATTRIBUTES_COUNT -> Kind.DROPPED_ATTRIBUTES_COUNT;
            case Columns.RESOURCE_ATTRIBUTES -> Kind.RESOURCE_ATTRIBUTES;
            case Columns.TRACE_ID -> Kind.TRACE_ID;
            case Columns.SPAN_ID -> Kind.SPAN_ID;
            case Columns.FLAGS -> Kind.FLAGS;
            case Columns.EVENT_NAME -> Kind.EVENT_NAME;
            case Columns.BODY_KIND -> Kind.BODY_KIND;
            case Columns.BODY -> Kind.BODY;
            case Columns.CONFIDENCE -> Kind.CONFIDENCE;
            case Columns.LOSSY_FLAG -> Kind.LOSSY_FLAG;
            case Columns.SCOPE_ATTRIBUTES -> Kind.SCOPE_ATTRIBUTES;
            case Columns.RESOURCE_SCHEMA_URL -> Kind.RESOURCE_SCHEMA_URL;
            case Columns.SCOPE_SCHEMA_URL -> Kind.SCOPE_SCHEMA_URL;
            case Columns.SERVICE_NAME -> Kind.SERVICE_NAME;
            default -> switch (t.getPrimitiveTypeName()) {
                case BINARY, FIXED_LEN_BYTE_ARRAY -> LogWriteSupport.ExtraValues.isString(t) ? Kind.EXTRA_STRING
                        : Kind.EXTRA_BYTES;
                case INT64 -> Kind.EXTRA_INT64;
                case INT32 -> Kind.EXTRA_INT32;
                case DOUBLE -> Kind.EXTRA_DOUBLE;
                case FLOAT -> Kind.EXTRA_FLOAT;
                case BOOLEAN -> Kind.EXTRA_BOOLEAN;
                default -> throw new IllegalStateException("unsupported extra column " + t);
            };
        };
    }

    /** The path of a standard 3-level list's element: list → repeated group → element. */
    private static String[] listElementPath(Type list) {
        GroupType repeated = list.asGroupType().getType(0).asGroupType();
        return new String[] {list.getName(), repeated.getName(), repeated.getType(0).getName()};
    }

    private static Type listElement(Type list) {
        return list.asGroupType().getType(0).asGroupType().getType(0);
    }

    private static String[] append(String[] path, String name) {
        String[] out = Arrays.copyOf(path, path.length + 1);
        out[path.length] = name;
        return out;
    }

    private static int leaf(MessageType schema, List<ColumnDescriptor> needed, String[] path) {
        needed.add(schema.getColumnDescription(path));
        return needed.size() - 1;
    }

    private enum Kind {
        TENANT, TEMPLATE_ID, TEMPLATE_VERSION, TIME, OBSERVED_TIME, EFFECTIVE_TIME, SEVERITY_NUMBER, SEVERITY_TEXT,
        SCOPE_NAME, SCOPE_VERSION, ATTRIBUTES, DROPPED_ATTRIBUTES_COUNT, RESOURCE_ATTRIBUTES, TRACE_ID, SPAN_ID, FLAGS,
        EVENT_NAME, BODY_KIND, BODY, CONFIDENCE, LOSSY_FLAG, SCOPE_ATTRIBUTES, RESOURCE_SCHEMA_URL, SCOPE_SCHEMA_URL,
        SERVICE_NAME, PARAMS, SEPARATORS, EXTRA_STRING, EXTRA_BYTES, EXTRA_INT64, EXTRA_INT32, EXTRA_DOUBLE,
        EXTRA_FLOAT, EXTRA_BOOLEAN
    }

    /**
     * One top-level field: its kind, its leaf cursor; for params also the value leaf ({@code second}, or -1) and
     * the definition level at which an element exists.
     */
    private record Field(Kind kind, String name, int leaf, int second, int elementDefinitionLevel) {
    }
}
