package dev.ourios.otlp;

import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.KeyValue;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps an OTLP {@code ExportLogsServiceRequest} (the official generated classes, whatever the transport or
 * encoding) to {@link LogRecord}s of one tenant; the columns are decided by {@link OtlpRows}, as for the OTLP/JSON
 * files of {@code ourios ingest}.
 *
 * <p>A record that cannot be stored is refused on its own, with a reason, instead of failing the whole request:
 * OTLP's partial success lets the client learn which part was dropped, and one bad record must not cost the others.
 */
public final class OtlpLogsDecoder {
    public DecodedLogs decode(String tenantId, ExportLogsServiceRequest request) {
        return decode(tenantId, request, RecordScreen.NONE);
    }

    /** As {@link #decode(String, ExportLogsServiceRequest)}, refusing also what {@code extra} refuses. */
    public DecodedLogs decode(String tenantId, ExportLogsServiceRequest request, RecordScreen extra) {
        List<LogRecord> records = new ArrayList<>();
        List<Rejection> rejections = new ArrayList<>();
        ExportLogsServiceRequest.Builder kept = ExportLogsServiceRequest.newBuilder();
        for (ResourceLogs rl : request.getResourceLogsList()) {
            List<KeyValue> resourceAttrs;
            try {
                resourceAttrs = keyValues(rl.getResource().getAttributesList());
            } catch (Refused e) {
                rl.getScopeLogsList().forEach(sl -> sl.getLogRecordsList().forEach(r -> rejections.add(e.rejection)));
                continue;
            }
            OtlpRows.Resource resource = OtlpRows.resource(tenantId, resourceAttrs, rl.getSchemaUrl());
            ResourceLogs.Builder keptResource = rl.toBuilder().clearScopeLogs();
            for (ScopeLogs sl : rl.getScopeLogsList()) {
                InstrumentationScope scope = sl.getScope();
                OtlpRows.Scope scopeRow;
                try {
                    scopeRow = OtlpRows.scope(scope.getName(), scope.getVersion(),
                            keyValues(scope.getAttributesList()), sl.getSchemaUrl());
                } catch (Refused e) {
                    sl.getLogRecordsList().forEach(r -> rejections.add(e.rejection));
                    continue;
                }
                ScopeLogs.Builder keptScope = sl.toBuilder().clearLogRecords();
                for (io.opentelemetry.proto.logs.v1.LogRecord r : sl.getLogRecordsList()) {
                    Rejection why = check(r);
                    if (why == null) {
                        why = extra.check(r);
                    }
                    if (why != null) {
                        rejections.add(why);
                        continue;
                    }
                    LogRecord built;
                    try {
                        built = OtlpRows.row(resource, scopeRow, fields(r));
                    } catch (Refused e) {
                        rejections.add(e.rejection);
                        continue;
                    }
                    records.add(built);
                    keptScope.addLogRecords(r);
                }
                if (keptScope.getLogRecordsCount() > 0) {
                    keptResource.addScopeLogs(keptScope);
                }
            }
            if (keptResource.getScopeLogsCount() > 0) {
                kept.addResourceLogs(keptResource);
            }
        }
        return new DecodedLogs(records, kept.build(), rejections);
    }

    /**
     * The same verdicts as {@link #decode} without building any row: what the receiver does before the WAL append,
     * so a request is converted once, by the flush, rather than twice.
     */
    public Screened screen(ExportLogsServiceRequest request) {
        return screen(request, RecordScreen.NONE);
    }

    /**
     * As {@link #screen(ExportLogsServiceRequest)}, refusing also what {@code extra} refuses (the tenant's
     * retention), so the write-ahead log never holds a record the store would not keep.
     */
    public Screened screen(ExportLogsServiceRequest request, RecordScreen extra) {
        List<Rejection> rejections = new ArrayList<>();
        int accepted = 0;
        for (ResourceLogs rl : request.getResourceLogsList()) {
            Rejection resourceWhy = refusal(rl.getResource().getAttributesList());
            for (ScopeLogs sl : rl.getScopeLogsList()) {
                Rejection scopeWhy = resourceWhy != null ? resourceWhy : refusal(sl.getScope().getAttributesList());
                for (io.opentelemetry.proto.logs.v1.LogRecord r : sl.getLogRecordsList()) {
                    Rejection why = scopeWhy != null ? scopeWhy : check(r);
                    if (why == null) {
                        why = refusal(r.getAttributesList());
                    }
                    if (why == null && r.hasBody()) {
                        why = refusal(r.getBody());
                    }
                    if (why == null) {
                        why = extra.check(r);
                    }
                    if (why == null) {
                        accepted++;
                    } else {
                        rejections.add(why);
                    }
                }
            }
        }
        if (rejections.isEmpty()) {
            return new Screened(request, accepted, rejections);
        }
        return new Screened(decode("screen", request, extra).kept(), accepted, rejections);
    }

    private static Rejection refusal(List<io.opentelemetry.proto.common.v1.KeyValue> kvs) {
        for (io.opentelemetry.proto.common.v1.KeyValue kv : kvs) {
            Rejection why = refusal(kv.getValue());
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    private static Rejection refusal(io.opentelemetry.proto.common.v1.AnyValue v) {
        switch (v.getValueCase()) {
            case STRING_VALUE_STRINDEX:
                return new Rejection(Rejection.INVALID_VALUE, "string_value_strindex is not allowed in logs");
            case ARRAY_VALUE:
                for (io.opentelemetry.proto.common.v1.AnyValue e : v.getArrayValue().getValuesList()) {
                    Rejection why = refusal(e);
                    if (why != null) {
                        return why;
                    }
                }
                return null;
            case KVLIST_VALUE:
                return refusal(v.getKvlistValue().getValuesList());
            default:
                return null;
        }
    }

    /** Null when the record can be stored, else why not. */
    private static Rejection check(io.opentelemetry.proto.logs.v1.LogRecord r) {
        int trace = r.getTraceId().size();
        if (trace != 0 && trace != OtlpRows.TRACE_ID_BYTES) {
            return new Rejection(Rejection.INVALID_TRACE_ID, "trace_id must be " + OtlpRows.TRACE_ID_BYTES
                    + " bytes, got " + trace);
        }
        int span = r.getSpanId().size();
        if (span != 0 && span != OtlpRows.SPAN_ID_BYTES) {
            return new Rejection(Rejection.INVALID_SPAN_ID, "span_id must be " + OtlpRows.SPAN_ID_BYTES
                    + " bytes, got " + span);
        }
        // fixed64 on the wire, signed 64-bit in Parquet: never saturate, refuse.
        if (r.getTimeUnixNano() < 0 || r.getObservedTimeUnixNano() < 0) {
            return new Rejection(Rejection.TIMESTAMP_OUT_OF_RANGE,
                    "time_unix_nano or observed_time_unix_nano exceeds the signed 64-bit range");
        }
        int sev = r.getSeverityNumberValue();
        if (sev < 0 || sev > OtlpRows.MAX_SEVERITY) {
            return new Rejection(Rejection.INVALID_SEVERITY, "severity_number " + sev + " is outside 0.."
                    + OtlpRows.MAX_SEVERITY);
        }
        return null;
    }

    private static OtlpRows.Fields fields(io.opentelemetry.proto.logs.v1.LogRecord r) {
        return new OtlpRows.Fields(r.getTimeUnixNano(), r.getObservedTimeUnixNano(), r.getSeverityNumberValue(),
                r.getSeverityText(), keyValues(r.getAttributesList()), r.getDroppedAttributesCount(), r.getFlags(),
                r.getTraceId().toByteArray(), r.getSpanId().toByteArray(), r.getEventName(),
                r.hasBody() ? value(r.getBody()) : new AnyValue.EmptyValue());
    }

    private static List<KeyValue> keyValues(List<io.opentelemetry.proto.common.v1.KeyValue> in) {
        List<KeyValue> out = new ArrayList<>(in.size());
        for (io.opentelemetry.proto.common.v1.KeyValue kv : in) {
            out.add(new KeyValue(kv.getKey(), kv.hasValue() ? value(kv.getValue()) : new AnyValue.EmptyValue()));
        }
        return out;
    }

    private static AnyValue value(io.opentelemetry.proto.common.v1.AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> new AnyValue.StringValue(v.getStringValue());
            case BOOL_VALUE -> new AnyValue.BoolValue(v.getBoolValue());
            case INT_VALUE -> new AnyValue.IntValue(v.getIntValue());
            case DOUBLE_VALUE -> new AnyValue.DoubleValue(v.getDoubleValue());
            case BYTES_VALUE -> new AnyValue.BytesValue(v.getBytesValue().toByteArray());
            case ARRAY_VALUE -> array(v.getArrayValue());
            case KVLIST_VALUE -> kvList(v.getKvlistValue());
            case VALUE_NOT_SET -> new AnyValue.EmptyValue();
            // An index into a profiles dictionary: meaningless in a logs request.
            case STRING_VALUE_STRINDEX -> throw new Refused(new Rejection(Rejection.INVALID_VALUE,
                    "string_value_strindex is not allowed in logs"));
        };
    }

    private static AnyValue array(ArrayValue a) {
        List<AnyValue> values = new ArrayList<>(a.getValuesCount());
        for (io.opentelemetry.proto.common.v1.AnyValue v : a.getValuesList()) {
            values.add(value(v));
        }
        return new AnyValue.ArrayValue(values);
    }

    private static AnyValue kvList(KeyValueList l) {
        return new AnyValue.KvListValue(keyValues(l.getValuesList()));
    }

    /** A value deep inside a record that makes the record unstorable. */
    private static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Rejection rejection;

        Refused(Rejection rejection) {
            super(rejection.message(), null, false, false);
            this.rejection = rejection;
        }
    }

}
