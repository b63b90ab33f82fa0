package dev.ourios.spark;

/**
 * One string per row holding every column of the storage schema (section 2.1 of storage.md) as the reader returned
 * it: integers and times as decimal integers (times are nanoseconds since the epoch), bytes as lowercase hex,
 * lists element by element, null as {@code null}, fields separated by '|'. The opt-in test builds the same string
 * from the rows it wrote, so any value a reader changed shows as a difference.
 */
final class RowFingerprint {
    private RowFingerprint() {
    }

    static String sql() {
        return "concat_ws('|', "
                + String.join(", ",
                        text("tenant_id"), text("template_version"), text("time_unix_nano"),
                        text("observed_time_unix_nano"), text("severity_number"), text("severity_text"),
                        text("scope_name"), text("scope_version"), text("attributes"),
                        text("dropped_attributes_count"), text("resource_attributes"), hex("trace_id"),
                        hex("span_id"), text("flags"), text("event_name"), text("body_kind"), hex("body"),
                        "coalesce(concat_ws('', transform(params, p -> concat(cast(p.type_tag as string), ':', "
                                + "coalesce(lower(hex(p.value)), 'null'), ','))), 'null')",
                        "coalesce(concat_ws('', transform(separators, s -> concat(coalesce(lower(hex(s)), 'null'), "
                                + "','))), 'null')",
                        text("confidence"), text("lossy_flag"), text("scope_attributes"), text("resource_schema_url"),
                        text("scope_schema_url"), text("`resource.service.name`"))
                + ")";
    }

    private static String text(String column) {
        return "coalesce(cast(" + column + " as string), 'null')";
    }

    private static String hex(String column) {
        return "coalesce(lower(hex(" + column + ")), 'null')";
    }
}
