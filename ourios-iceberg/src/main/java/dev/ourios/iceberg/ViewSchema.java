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
 * <p>Time columns ({@code TIMESTAMP(NANOS, UTC)}) take the {@link ViewForm}'s type: Iceberg v3 {@code
 * timestamptz_ns}, or {@code long} nanoseconds since the epoch (Iceberg's {@code timestamptz} is microseconds: the
 * values would change). Unsigned 32-bit columns are {@code long}, the only Iceberg type that holds every uint32
 * value; 8- and 16-bit ones {@code int}. Files are written with the integer columns signed (storage.md section 2.1:
 * the same bits), because Iceberg has no unsigned 64-bit type and Spark's Iceberg readers refuse a file holding an
 * unsigned column, whether or not it is projected. Extra columns of an unsigned 64-bit type are left out.
 *
 * <p>In the {@code long} form, {@code effective_hour} is not in the data files: it is the hour of the file's
 * partition (the store's directory), an identity partition column that readers fill from the partition value, so
 * engines prune by tenant and hour on the partition (Iceberg has no hour transform of a {@code long}).
 */
public final class ViewSchema {
    /** The column holding the hour of a row's partition (the directory's hour), its partition field's source. */
    public static final String HOUR_PARTITION = "effective_hour";
    /**
     * The partition field of the day partitions' spec (storage.md section 10): the day of the effective time
     * ({@code timestamp_ns} form), or the column of that name, filled from the partition value ({@code long} form).
     */
    public static final String DAY_PARTITION = "effective_day";

    private ViewSchema() {
    }

    /** The schema of a table without extra columns (Iceberg assigns the ids when the table is created). */
    public static Schema base(ViewForm form) {
        Type time = form == ViewForm.LONG ? Types.LongType.get() : Types.TimestampNanoType.withZone();
        List<NestedField> f = new ArrayList<>();
        int id = 1;
        f.add(opt(id++, Columns.TENANT_ID, Types.StringType.get()));
        f.add(opt(id++, Columns.TEMPLATE_ID, Types.LongType.get()));
        f.add(opt(id++, Columns.TEMPLATE_VERSION, Types.LongType.get()));
        f.add(opt(id++, Columns.TIME, time));
        f.add(opt(id++, Columns.OBSERVED_TIME, time));
        f.add(opt(id++, Columns.EFFECTIVE_TIME, time));
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
        if (form == ViewForm.LONG) {
            f.add(opt(id++, HOUR_PARTITION, Types.TimestampType.withZone()));
        }
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
     * Refuses a table of another form than {@code form}: a sync cannot change a view's form, only a rebuild can,
     * which dropping the view and syncing again does.
     */
    static void checkForm(Schema table, ViewForm form, String tableUri) {
        NestedField time = table.findField(Columns.EFFECTIVE_TIME);
        boolean ok = time != null && time.type().equals(base(form).findType(Columns.EFFECTIVE_TIME))
                && (table.findField(HOUR_PARTITION) != null) == (form == ViewForm.LONG);
        if (!ok) {
            throw new ViewFormException(tableUri + ": the Iceberg view's time columns are "
                    + (time == null ? "missing" : time.type()) + ", not the time type '" + form.id()
                    + "'; delete the store's iceberg/ directory and sync again to rebuild it in that form");
        }
    }

    /**
     * Partitioned by tenant and by hour, as the store's directories are: the hour of the effective time
     * ({@code timestamp_ns} form) or the {@code effective_hour} column ({@code long} form).
     */
    public static PartitionSpec spec(Schema schema, ViewForm form) {
        PartitionSpec.Builder b = PartitionSpec.builderFor(schema).identity(Columns.TENANT_ID);
        return (form == ViewForm.LONG ? b.identity(HOUR_PARTITION) : b.hour(Columns.EFFECTIVE_TIME, HOUR_PARTITION))
                .build();
    }

    /** The spec of the day partitions' files, when the table has it. */
    public static Optional<PartitionSpec> daySpec(java.util.Map<Integer, PartitionSpec> specs) {
        return specs.values().stream()
                .filter(s -> s.fields().stream().anyMatch(f -> f.name().equals(DAY_PARTITION))).findFirst();
    }

    /**
     * Adds the day partitions' spec to a table that lacks it, never as the default: {@code identity(tenant_id)}
     * and {@code day(effective_time_unix_nano)}, or in the {@code long} form {@code identity(effective_day)} on a
     * {@code timestamptz} column that the data files do not hold. Returns whether the schema gained that column.
     */
    public static boolean addDaySpec(org.apache.iceberg.Transaction txn, ViewForm form) {
        boolean column = form == ViewForm.LONG && txn.table().schema().findField(DAY_PARTITION) == null;
        if (column) {
            txn.updateSchema().addColumn(null, DAY_PARTITION, Types.TimestampType.withZone()).commit();
        }
        org.apache.iceberg.UpdatePartitionSpec update = txn.updateSpec().addNonDefaultSpec()
                .removeField(HOUR_PARTITION);
        if (form == ViewForm.LONG) {
            update.addField(DAY_PARTITION);
        } else {
            update.addField(DAY_PARTITION, org.apache.iceberg.expressions.Expressions.day(Columns.EFFECTIVE_TIME));
        }
        update.commit();
        return column;
    }

    /**
     * The Iceberg type under which a column of this Parquet type reads back unchanged, or empty when Iceberg
     * cannot read it without changing a value (unsigned 64-bit, INT96, an unknown annotation).
     */
    public static Optional<Type> icebergType(PrimitiveType p, ViewForm form) {
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
                        case NANOS -> form == ViewForm.LONG ? Types.LongType.get()
                                : t.isAdjustedToUTC() ? Types.TimestampNanoType.withZone()
                                : Types.TimestampNanoType.withoutZone();
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
