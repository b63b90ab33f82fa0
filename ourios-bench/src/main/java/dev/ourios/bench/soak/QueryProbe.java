package dev.ourios.bench.soak;

import dev.ourios.gen.DemoService;
import dev.ourios.gen.LogGenerator;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.QueryStats;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The two queries sampled through the soak, on the first tenant:
 * <ul>
 * <li>template-exact: every row of the rarest demo template, over all hours ingested so far (RFC 0009.7's
 * "template-exact query latency does not grow proportionally to the pre-compaction file count"; rare, so the cost
 * is dominated by opening files and pruning row groups, which is what compaction changes);</li>
 * <li>one-service window: one mid-volume service over 30 s in the middle of the latest sealed hour (what RFC 0036's
 * sort order serves), so it reads a partition that is compacted or about to be.</li>
 * </ul>
 */
public final class QueryProbe {
    /** One query's cost. */
    public record Timing(double ms, long rows, long files) {
    }

    private final QueryEngine engine;
    private final String tenant;
    private final long templateId;
    private final String service;
    private final Instant firstHour;
    private final Instant lastHour;
    private final Clock planClock;
    private final Duration grace;

    public QueryProbe(QueryEngine engine, LogGenerator generator, String tenant, Instant firstHour, Instant lastHour,
            Clock planClock, Duration grace) {
        this.engine = engine;
        this.tenant = tenant;
        this.templateId = rarestTemplate(generator);
        this.service = generator.services().get(generator.services().size() / 2).name();
        this.firstHour = firstHour;
        this.lastHour = lastHour;
        this.planClock = planClock;
        this.grace = grace;
    }

    public long templateId() {
        return templateId;
    }

    public String service() {
        return service;
    }

    public Timing templateExact() throws IOException {
        return time(Query.tenant(tenant).templateId(templateId));
    }

    public Timing serviceWindow() throws IOException {
        Instant sealedHour = planClock.instant().minus(grace).truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
        Instant hour = sealedHour.isBefore(firstHour) ? firstHour : sealedHour.isAfter(lastHour) ? lastHour
                : sealedHour;
        Instant from = hour.plus(Duration.ofMinutes(30));
        return time(Query.tenant(tenant).service(service).window(from, from.plusSeconds(30)));
    }

    private Timing time(Query q) throws IOException {
        long[] rows = {0};
        long t0 = System.nanoTime();
        QueryStats s = engine.run(q, r -> rows[0]++);
        return new Timing((System.nanoTime() - t0) / 1e6, rows[0], s.files());
    }

    /** The template with the smallest expected share: service weight x its Zipf share within the service. */
    static long rarestTemplate(LogGenerator generator) {
        double total = generator.services().stream().mapToDouble(DemoService::weight).sum();
        long best = 0;
        double bestShare = Double.MAX_VALUE;
        for (DemoService s : generator.services()) {
            int n = s.templates().size();
            double harmonic = 0;
            for (int t = 1; t <= n; t++) {
                harmonic += 1.0 / t;
            }
            for (int t = 0; t < n; t++) {
                double share = s.weight() / total / (t + 1) / harmonic;
                if (share < bestShare) {
                    bestShare = share;
                    best = s.templates().get(t).id();
                }
            }
        }
        return best;
    }
}
