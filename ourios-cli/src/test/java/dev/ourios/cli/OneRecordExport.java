package dev.ourios.cli;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** An OTLP/HTTP export of one record, {@code r<i>} at a fixed time plus {@code i} ns, for tenant {@code acme}. */
final class OneRecordExport {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** The records' base time (ns since the epoch). */
    static final long T0 = 1_785_000_000_000_000_000L;

    private OneRecordExport() {
    }

    /** Sends record {@code i} to the OTLP/HTTP receiver on {@code port}; the answer's status (60 s at most). */
    static int send(int port, int i) throws Exception {
        byte[] body = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(
                ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder()
                        .setTimeUnixNano(T0 + i).setBody(AnyValue.newBuilder().setStringValue("r" + i)))))
                .build().toByteArray();
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/logs"))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/x-protobuf")
                .header("X-Ourios-Tenant", "acme").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
