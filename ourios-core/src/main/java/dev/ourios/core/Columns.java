package dev.ourios.core;

import java.util.List;

/** Column names of the log-record schema (STORAGE.md §2). Columns are always addressed by name. */
public final class Columns {
    public static final String TENANT_ID = "tenant_id";
    public static final String TEMPLATE_ID = "template_id";
    public static final String TEMPLATE_VERSION = "template_version";
    public static final String TIME = "time_unix_nano";
    public static final String OBSERVED_TIME = "observed_time_unix_nano";
    public static final String EFFECTIVE_TIME = "effective_time_unix_nano";
    public static final String SEVERITY_NUMBER = "severity_number";
    public static final String SEVERITY_TEXT = "severity_text";
    public static final String SCOPE_NAME = "scope_name";
    public static final String SCOPE_VERSION = "scope_version";
    public static final String ATTRIBUTES = "attributes";
    public static final String DROPPED_ATTRIBUTES_COUNT = "dropped_attributes_count";
    public static final String RESOURCE_ATTRIBUTES = "resource_attributes";
    public static final String TRACE_ID = "trace_id";
    public static final String SPAN_ID = "span_id";
    public static final String FLAGS = "flags";
    public static final String EVENT_NAME = "event_name";
    public static final String BODY_KIND = "body_kind";
    public static final String BODY = "body";
    public static final String PARAMS = "params";
    public static final String SEPARATORS = "separators";
    public static final String CONFIDENCE = "confidence";
    public static final String LOSSY_FLAG = "lossy_flag";
    public static final String SCOPE_ATTRIBUTES = "scope_attributes";
    public static final String RESOURCE_SCHEMA_URL = "resource_schema_url";
    public static final String SCOPE_SCHEMA_URL = "scope_schema_url";
    public static final String SERVICE_NAME = "resource.service.name";

    /** The base columns in declared order (promoted columns follow). */
    public static final List<String> BASE = List.of(TENANT_ID, TEMPLATE_ID, TEMPLATE_VERSION, TIME, OBSERVED_TIME,
            EFFECTIVE_TIME, SEVERITY_NUMBER, SEVERITY_TEXT, SCOPE_NAME, SCOPE_VERSION, ATTRIBUTES,
            DROPPED_ATTRIBUTES_COUNT, RESOURCE_ATTRIBUTES, TRACE_ID, SPAN_ID, FLAGS, EVENT_NAME, BODY_KIND, BODY,
            PARAMS, SEPARATORS, CONFIDENCE, LOSSY_FLAG, SCOPE_ATTRIBUTES, RESOURCE_SCHEMA_URL, SCOPE_SCHEMA_URL);

    /** Columns that must be present in every file (a missing one is a hard error naming it). */
    public static final List<String> REQUIRED = List.of(TENANT_ID, TEMPLATE_ID, TEMPLATE_VERSION, TIME,
            SEVERITY_NUMBER, ATTRIBUTES, DROPPED_ATTRIBUTES_COUNT, RESOURCE_ATTRIBUTES, FLAGS, BODY_KIND, PARAMS,
            SEPARATORS, CONFIDENCE, LOSSY_FLAG);

    /** Columns recomputed by compaction (re-projection) and therefore left out of the source checksum. */
    public static boolean isDerived(String column) {
        return column.equals(EFFECTIVE_TIME) || column.startsWith("resource.") || column.startsWith("attr.");
    }

    private Columns() {
    }
}
