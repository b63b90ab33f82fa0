package dev.ourios.cli;

import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.aggregate.CountsOverTime;
import dev.ourios.query.aggregate.CountsRequest;
import dev.ourios.query.aggregate.GroupField;
import dev.ourios.query.aggregate.Steps;
import dev.ourios.server.query.CountsJson;
import dev.ourios.server.telemetry.Telemetry;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ourios stats}: one tenant's matching rows counted per time bucket, optionally by up to two fields. */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Count one tenant's matching rows per time bucket, optionally grouped by up to two fields")
public final class StatsCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Mixin
    FilterFlags filters;

    @Option(names = "--step", paramLabel = "DURATION", description = "Bucket width (e.g. 1m, 1h); default: a round "
            + "width giving about 100 buckets")
    String step;

    @Option(names = "--by", paramLabel = "FIELD", description = "Group by this field (severity, service, scope, "
            + "attributes.<key>, resource.<key>); at most twice")
    List<String> by = new ArrayList<>();

    @Option(names = "--max-groups", paramLabel = "N", description = "Groups reported (the rest as other; default 10)")
    int maxGroups = 10;

    @Option(names = "--json", description = "The answer of POST /v1/stats, as one JSON object")
    boolean json;

    @Override
    public Integer call() throws Exception {
        CountsRequest request = request();
        Output out = Output.system();
        try (ObjectStore s = store.open();
                Telemetry telemetry = Telemetry.open(TelemetryEnvironment.read(System.getenv()))) {
            QueryEngine engine = new QueryEngine(s, new TableLayout(s), new TableReader(s, new ManifestCodec()),
                    telemetry.meterProvider());
            UnknownTenants.report(s, store.uri(), List.of(request.query().tenant()), out.err());
            CountsOverTime.Counts counts;
            try {
                counts = new CountsOverTime(engine).run(request);
            } catch (java.io.IOException e) {
                throw new JobFailedException("stats failed: " + e.getMessage(), e);
            }
            if (json) {
                out.jsonLine(CountsJson.of(request, counts));
            } else {
                print(out, request, counts);
            }
        }
        return 0;
    }

    /** One line per non-empty (bucket, group): its start, the group's values, the count; then the total. */
    private static void print(Output out, CountsRequest r, CountsOverTime.Counts c) {
        for (int b = 0; b < c.buckets(); b++) {
            Instant start = c.origin().plus(c.step().multipliedBy(b));
            for (CountsOverTime.Series s : c.series()) {
                if (s.counts()[b] == 0) {
                    continue;
                }
                String group = s.other() ? "(other)" : String.join(" ", s.group().stream()
                        .map(v -> v == null ? "-" : TableText.escape(v)).toList());
                out.out().printf("%s  %-40s %d%n", start, r.groupBy().isEmpty() ? "" : group, s.counts()[b]);
            }
        }
        out.out().printf("total %d rows, step %s%s%n", c.total(), c.step(), c.groupsCapped()
                ? " (more groups than counted one by one: some in other)" : "");
    }

    CountsRequest request() {
        Query q = filters.toQuery();
        Instant from = q.from().orElseThrow();
        Instant to = q.to().orElseThrow();
        if (by.size() > CountsRequest.MAX_GROUP_FIELDS) {
            throw new UsageException("--by: at most " + CountsRequest.MAX_GROUP_FIELDS + " fields (got " + by.size()
                    + ")");
        }
        List<GroupField> fields = new ArrayList<>();
        for (String f : by) {
            try {
                fields.add(GroupField.parse(f));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--by: " + e.getMessage());
            }
        }
        Duration width = step == null ? Steps.choose(Duration.between(from, to), Steps.TARGET_BUCKETS)
                : Units.parseDuration("--step", step);
        try {
            return new CountsRequest(q, from, to, width, fields, maxGroups);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
