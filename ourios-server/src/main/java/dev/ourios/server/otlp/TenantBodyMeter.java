package dev.ourios.server.otlp;

import dev.ourios.http.HttpRefusal;
import dev.ourios.http.Route;
import dev.ourios.ingest.ByteBudget;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Charges a request body to its tenant's part of the ingest buffer as the bytes arrive: a slow client holds only
 * what it has sent, and a tenant at its share is refused (429) while the other tenants' requests go on.
 */
final class TenantBodyMeter implements Route.BodyMeter {
    private final ByteBudget budget;
    private final String tenant;
    private final AtomicLong charged = new AtomicLong();

    TenantBodyMeter(ByteBudget budget, String tenant) {
        this.budget = budget;
        this.tenant = tenant;
    }

    @Override
    public HttpRefusal charge(long bytes) {
        if (budget.tryAcquire(tenant, bytes)) {
            charged.addAndGet(bytes);
            return null;
        }
        return new HttpRefusal(429, null, refusal(budget, tenant, bytes), LogsExport.BUFFER_FULL_RETRY_SECONDS);
    }

    /** Why {@code bytes} more were refused: the tenant's share, or the whole buffer. */
    static String refusal(ByteBudget budget, String tenant, long bytes) {
        return budget.used(tenant) + bytes > budget.perOwnerLimit()
                ? "this tenant's requests in flight hold its share of the receiver's request buffer "
                        + "(ingest.max_tenant_buffer_share of ingest.max_buffer_bytes)"
                : "the receiver's request buffer is full (ingest.max_buffer_bytes)";
    }

    @Override
    public void run() {
        budget.release(tenant, charged.getAndSet(0));
    }
}
