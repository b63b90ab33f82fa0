package dev.ourios.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The receiver's screen and the flush's decode agree on every verdict, and screening keeps a clean request as is. */
class OtlpLogsDecoderTest {
    private final OtlpLogsDecoder decoder = new OtlpLogsDecoder();

    private static LogRecord ok(int i) {
        return LogRecord.newBuilder().setTimeUnixNano(1_785_000_000_000_000_000L + i)
                .setBody(AnyValue.newBuilder().setStringValue("r" + i)).build();
    }

    @Test
    void screen_and_decode_give_the_same_verdicts() {
        AnyValue strindex = AnyValue.newBuilder().setStringValueStrindex(3).build();
        List<LogRecord> records = List.of(ok(0),
                ok(1).toBuilder().setTraceId(ByteString.copyFrom(new byte[15])).build(),
                ok(2).toBuilder().setSpanId(ByteString.copyFrom(new byte[7])).build(),
                ok(3).toBuilder().setTimeUnixNano(-1).build(),
                ok(4).toBuilder().setSeverityNumberValue(300).build(),
                ok(5).toBuilder().setBody(AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                        .addValues(strindex))).build(),
                ok(6).toBuilder().addAttributes(KeyValue.newBuilder().setKey("k").setValue(strindex)).build(),
                ok(7));
        ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder().addAllLogRecords(records))).build();
        Screened s = decoder.screen(req);
        DecodedLogs d = decoder.decode("t", req);
        assertEquals(2, s.accepted());
        assertEquals(d.records().size(), s.accepted());
        assertEquals(d.rejections(), s.rejections());
        assertEquals(List.of(Rejection.INVALID_TRACE_ID, Rejection.INVALID_SPAN_ID, Rejection.TIMESTAMP_OUT_OF_RANGE,
                Rejection.INVALID_SEVERITY, Rejection.INVALID_VALUE, Rejection.INVALID_VALUE),
                s.rejections().stream().map(Rejection::reason).toList());
        assertEquals(d.kept(), s.kept());
        assertEquals(List.of(ok(0), ok(7)), s.kept().getResourceLogs(0).getScopeLogs(0).getLogRecordsList());
        // A replay of the kept request refuses nothing.
        assertEquals(List.of(), decoder.decode("t", s.kept()).rejections());
    }

    @Test
    void a_clean_request_is_kept_as_it_came() {
        ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(ok(1)).addLogRecords(ok(2)))).build();
        assertSame(req, decoder.screen(req).kept());
    }

    @Test
    void an_extra_screen_refuses_in_screen_and_decode_alike_and_the_kept_request_holds_only_what_it_kept() {
        RecordScreen evenOnly = r -> (r.getTimeUnixNano() & 1) == 0 ? null
                : new Rejection(Rejection.RETENTION_EXPIRED, "odd");
        ExportLogsServiceRequest req = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(ok(0)).addLogRecords(ok(1))
                        .addLogRecords(ok(2)))).build();
        Screened s = decoder.screen(req, evenOnly);
        DecodedLogs d = decoder.decode("t", req, evenOnly);
        assertEquals(2, s.accepted());
        assertEquals(d.rejections(), s.rejections());
        assertEquals(d.kept(), s.kept());
        assertEquals(List.of(ok(0), ok(2)), s.kept().getResourceLogs(0).getScopeLogs(0).getLogRecordsList());
    }
}
