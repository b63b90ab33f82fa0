package dev.ourios.iceberg;

import java.util.Arrays;
import java.util.Locale;

/**
 * How the view types the time columns, chosen when it is first synced (storage.md section 10.1). No one form reads
 * in every engine: Spark has no nanosecond timestamp type and cannot load a table with one, and Iceberg's Java
 * generic reader returns a nanosecond-annotated column as a timestamp whatever the table says, so its time filters
 * fail on a {@code long} column.
 */
public enum ViewForm {
    /**
     * Iceberg v3 {@code timestamptz_ns} time columns, partitioned by the hour of the effective time: Iceberg's Java
     * library and engines with v3 nanosecond timestamps.
     */
    TIMESTAMP_NS("timestamp_ns"),
    /**
     * Time columns as {@code long} nanoseconds since the epoch, an Iceberg v2 table partitioned by an
     * {@code effective_hour} column that readers fill from the partition value, read through Iceberg's row reader:
     * Spark, and engines without nanosecond timestamps.
     */
    LONG("long");

    private final String id;

    ViewForm(String id) {
        this.id = id;
    }

    /** The name users give it ({@code --time-type}, {@code iceberg.time_type}). */
    public String id() {
        return id;
    }

    /** The form named {@code id}; one line naming the choices otherwise. */
    public static ViewForm of(String id) {
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(f -> f.id.equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown time type '" + id + "' (one of "
                        + String.join(", ", Arrays.stream(values()).map(ViewForm::id).toList()) + ")"));
    }
}
