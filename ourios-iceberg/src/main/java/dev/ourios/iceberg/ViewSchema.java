package dev.ourios.iceberg;

import dev.ourios.core.Columns;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.types.Types.NestedField;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The Iceberg schema of the view: every column of the storage schema under its own name, typed so that Iceberg
 * readers return exactly the stored value. Our files carry no Parquet field ids, so the table's name mapping
 * ({@code schema.name-mapping.default}, made from this schema by name) is what ties a file's columns to these ids;
 * a reader that fell back to positions would misread them.
 *
 * <p>The mappings are chosen so that every engine that reads Iceberg tables reads every value unchanged, Spark's
 * Iceberg readers included. Time columns ({@code TIMESTAMP(NANOS, UTC)}) are {@code long}, nanoseconds since the
 * epoch, as their OTLP names say: Iceberg's {@code timestamptz} is microseconds (the values would change) and Spark
 * cannot load a table with {@code timestamptz_ns}. Unsigned 32-bit columns are {@code long}; 8- and 16-bit ones
 * {@code int}. Files are written with the integer columns signed (storage.md section 2.1: the same bits), because
 * Iceberg has no unsigned 64-bit type and Spark's Iceberg readers refuse a file holding an unsigned column, whether
 * or not it is projected. Extra columns of an unsigned 64-bit type are left out of the schema.
 *
 * <p>{@code effective_hour} is not in the data files: it is the hour of the file's partition (the store's
 * directory), an identity partition column that readers fill from the partition value, so engines prune by tenant
 * and hour on the partition, and by time on each file's bounds of {@code effective_time_unix_nano}.
 */
public final class ViewSchema {
    /** The column holding the hour of a row's partition (the directory's hour), its partition field's source. */
    public static final String HOUR_PARTITION = "effective_hour";

    private ViewSchema() {
    }

    /** The schema of a table without extra columns (Iceberg assigns the ids when the table is created). */
    public static Schema base() {
        List<NestedField> f = new ArrayList<>();
        int id = 1;
        f.add(opt(id++, Columns.TENANT_ID, Types.StringType.get()));
        f.add(opt(id++, Columns.TEMPLATE_ID, Types.LongType.get()));
        f.add(opt(id++, Columns.TEMPLATE_VERSION, Types.LongType.get()));
        f.add(opt(id++, Columns.TIME, Types.LongType.get()));
        f.add(opt(id++, Columns.OBSERVED_TIME, Types.LongType.get()));
        f.add(opt(id++, Columns.EFFECTIVE_TIME, Types.LongType.get()));
        f.add(opt(id++, Columns.SEVERITY_NUMBER, Types.IntegerType.get()));
        f.add(opt(id++, Columns.SEVERITY_TEXT, Types.StringType.get()));
        f.add(opt(id++, Columns.SCOPE_NAME, Types.StringType.get()));
        f.add(opt(id++, Columns.SCOPE_VERSION, Types.StringType.get()));
        f.add(opt(id++, Columns.ATTRIBUTES, Types.StringType.get()));
        f.add(opt(id++, Columns.DROPPED_ATTRIBUTES_COUNT, Types.LongType.get()));
        f.add(opt(id++, Columns.RESOURCE_ATTRIBUTES, Types.StringType.get()));
        f.add(opt(id++, Columns.TRACE_ID, Types.FixedType.ofLength(16)));
        f.add(opt(id++, Columns.SPAN_ID, Types.FixedType.ofLength(8)));
        f.add(opt(id++, Columns.FLAGS, Types.LongType.get()));
        f.add(opt(id++, Columns.EVENT_NAME, Types.StringType.get()));
        f.add(opt(id++, Columns.BODY_KIND, Types.IntegerType.get()));
        f.add(opt(id++, Columns.BODY, Types.BinaryType.get()));
        int paramsId = id++;
        int separatorsId = id++;
        f.add(opt(id++, Columns.CONFIDENCE, Types.FloatType.get()));
        f.add(opt(id++, Columns.LOSSY_FLAG, Types.BooleanType.get()));
        f.add(opt(id++, Columns.SCOPE_ATTRIBUTES, Types.StringType.get()));
        f.add(opt(id++, Columns.RESOURCE_SCHEMA_URL, Types.StringType.get()));
        f.add(opt(id++, Columns.SCOPE_SCHEMA_URL, Types.StringType.get()));
        f.add(opt(id++, Columns.SERVICE_NAME, Types.StringType.get()));
        f.add(opt(id++, HOUR_PARTITION, Types.TimestampType.withZone()));
        int paramsElement = id++;
        int typeTag = id++;
        int value = id++;
        int separatorElement = id++;
        // The list columns go in their storage position; their nested ids come after the top-level ones.
        f.add(19, NestedField.optional(paramsId, Columns.PARAMS, Types.ListType.ofRequired(paramsElement,
                Types.StructType.of(
                        NestedField.required(typeTag, "type_tag", Types.IntegerType.get()),
                        NestedField.optional(value, "value", Types.BinaryType.get())))));
        f.add(20, NestedField.optional(separatorsId, Columns.SEPARATORS,
                Types.ListType.ofRequired(separatorElement, Types.BinaryType.get())));
        return new Schema(f);
    }

    /**
     * Refuses a table whose schema is not of this form (a view made with nanosecond timestamps and an hour transform):
     * such a view cannot be brought in line by a sync, only rebuilt, which dropping it and syncing again does.
     */
    static void checkForm(Schema table, String tableUri) {
        NestedField time = table.findField(Columns.EFFECTIVE_TIME);
        if (table.findField(HOUR_PARTITION) == null || time == null || !time.type().equals(Types.LongType.get())) {
            throw new ViewFormException(tableUri + ": the Iceberg view has another form (time columns "
                    + (time == null ? "missing" : time.type()) + "); delete the store's iceberg/ directory and sync"
                    + " again to rebuild it");
        }
    }

    /** Partitioned by tenant and by the partition's hour (both identity), as the store's directories are. */
    public static PartitionSpec spec(Schema schema) {
        return PartitionSpec.builderFor(schema).identity(Columns.TENANT_ID).identity(HOUR_PARTITION).build();
    }

    /**
     * The Iceberg type under which a column of this Parquet type reads back unchanged, or empty when Iceberg
     * cannot read it without changing a value (unsigned 64-bit, INT96, an unknown annotation).
     */
    public static Optional<Type> icebergType(PrimitiveType p) {
        LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
        switch (p.getPrimitiveTypeName()) {
            case BINARY:
                if (logical == null) {
                    return Optional.of(Types.BinaryType.get());
                }
                return logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        ? Optional.of(Types.StringType.get()) : Optional.empty();
            case FIXED_LEN_BYTE_ARRAY:
                return logical == null ? Optional.of(Types.FixedType.ofLength(p.getTypeLength())) : Optional.empty();
            case INT64:
                if (logical == null) {
                    return Optional.of(Types.LongType.get());
                }
                if (logical instanceof IntLogicalTypeAnnotation i) {
                    return i.isSigned() ? Optional.of(Types.LongType.get()) : Optional.empty();
                }
                if (logical instanceof TimestampLogicalTypeAnnotation t) {
                    return Optional.of(switch (t.getUnit()) {
                        // nanoseconds since the epoch, as the base time columns (see the class comment)
                        case NANOS -> Types.LongType.get();
                        case MICROS, MILLIS -> t.isAdjustedToUTC() ? Types.TimestampType.withZone()
                                : Types.TimestampType.withoutZone();
                    });
                }
                return Optional.empty();
            case INT32:
                if (logical == null) {
                    return Optional.of(Types.IntegerType.get());
                }
                if (logical instanceof IntLogicalTypeAnnotation i) {
                    return Optional.of(i.isSigned() || i.getBitWidth() < 32 ? Types.IntegerType.get()
                            : Types.LongType.get());
                }
                if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    return Optional.of(Types.DateType.get());
                }
                return Optional.empty();
            case DOUBLE:
                return Optional.of(Types.DoubleType.get());
            case FLOAT:
                return Optional.of(Types.FloatType.get());
            case BOOLEAN:
                return Optional.of(Types.BooleanType.get());
            default:
                return Optional.empty();
        }
    }

    private static NestedField opt(int id, String name, Type type) {
        return NestedField.optional(id, name, type);
    }
}
