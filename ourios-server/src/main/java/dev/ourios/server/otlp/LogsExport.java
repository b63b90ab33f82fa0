package dev.ourios.server.otlp;

import dev.ourios.ingest.ByteBudget;
import dev.ourios.ingest.IngestResult;
import dev.ourios.ingest.Ingester;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;

/**
 * What both OTLP receivers do with a decoded export request once they know its tenant: the ingester's admission
 * check, the write to the write-ahead log (returning only once the accepted records are durable), and the
 * {@code ExportLogsServiceResponse} with {@code partial_success} filled as OTLP asks: the count of rejected records
 * and the ingester's message about them, and nothing when every record was accepted.
 */
public final class LogsExport {
    /** Seconds a client is told to wait when the shared request buffer is full. */
    public static final int BUFFER_FULL_RETRY_SECONDS = 1;
    private final Ingester ingester;

    public LogsExport(Ingester ingester) {
        this.ingester = ingester;
    }

    public Ingester ingester() {
        return ingester;
    }

    /**
     * Refuses, before anything of a request is read, a tenant id no partition path can hold (400, INVALID_ARGUMENT
     * on gRPC), and any request when the WAL cannot take more (failed, behind, stopping).
     */
    public void admit(String tenant) throws Refusal {
        IngestResult early = ingester.tenantRefusal(tenant);
        if (early == null) {
            early = ingester.admission();
        }
        if (early != null) {
            throw new Refusal(early.status(), early.errorMessage(), early.retryAfterSeconds());
        }
    }

    /**
     * The refusal of {@code bytes} more for {@code tenant} that do not fit the request buffer: the tenant's share of
     * it ({@code ingest.max_tenant_buffer_share}) or the whole ({@code ingest.max_buffer_bytes}).
     */
    public static Refusal bufferFull(ByteBudget budget, String tenant, long bytes) {
        return new Refusal(429, TenantBodyMeter.refusal(budget, tenant, bytes), BUFFER_FULL_RETRY_SECONDS);
    }

    /** Stores the request's accepted records durably for {@code tenant}; the response to send. */
    public ExportLogsServiceResponse export(String tenant, ExportLogsServiceRequest request)
            throws Refusal, InterruptedException {
        IngestResult result = ingester.ingest(tenant, request);
        if (result.status() != 200) {
            throw new Refusal(result.status(), result.errorMessage(), result.retryAfterSeconds());
        }
        ExportLogsServiceResponse.Builder response = ExportLogsServiceResponse.newBuilder();
        if (!result.rejections().isEmpty()) {
            response.setPartialSuccess(ExportLogsPartialSuccess.newBuilder()
                    .setRejectedLogRecords(result.rejections().size())
                    .setErrorMessage(result.errorMessage()));
        }
        return response.build();
    }
}
