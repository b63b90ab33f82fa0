package dev.ourios.bench;

import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.query.ReadSide;
import dev.ourios.query.QueryStats;
import dev.ourios.store.ObjectStore;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One query, in-process and warm, against two live sets of the same rows (before and after compaction),
 * alternating A and B for {@code iterations} rounds after {@code warmups}. Latency is measured around
 * {@link QueryEngine#run} (every row decoded and handed to a sink) or, for a count, {@link QueryEngine#count}; the
 * stats (row groups, bytes) come from the engine's own counters.
 */
final class QueryContest {
    private final int warmups;
    private final int iterations;
    private final boolean count;

    QueryContest(int warmups, int iterations) {
        this(warmups, iterations, false);
    }

    QueryContest(int warmups, int iterations, boolean count) {
        this.warmups = warmups;
        this.iterations = iterations;
        this.count = count;
    }

    private QueryStats once(QueryEngine engine, Query q) throws IOException {
        return count ? engine.count(q) : engine.run(q, r -> { });
    }

    record Side(Samples millis, QueryStats stats) {
    }

    record Result(Side before, Side after) {
        double ratio() {
            return before.millis().median() / after.millis().median();
        }
    }

    Result run(Query q, ObjectStore before, ObjectStore after) throws IOException {
        QuietStores.await(before, after);
        QueryEngine a = engine(before);
        QueryEngine b = engine(after);
        for (int i = 0; i < warmups; i++) {
            once(a, q);
            once(b, q);
        }
        List<Double> ta = new ArrayList<>();
        List<Double> tb = new ArrayList<>();
        QueryStats sa = null;
        QueryStats sb = null;
        for (int i = 0; i < iterations; i++) {
            boolean aFirst = i % 2 == 0;
            for (int k = 0; k < 2; k++) {
                boolean isA = (k == 0) == aFirst;
                long t0 = System.nanoTime();
                QueryStats s = once(isA ? a : b, q);
                double ms = (System.nanoTime() - t0) / 1e6;
                if (isA) {
                    ta.add(ms);
                    sa = s;
                } else {
                    tb.add(ms);
                    sb = s;
                }
            }
        }
        if (sa.rows() != sb.rows()) {
            throw new IllegalStateException("before and after returned different rows: " + sa + " vs " + sb);
        }
        return new Result(new Side(new Samples(ta), sa), new Side(new Samples(tb), sb));
    }

    /** An engine composed as {@code ourios serve} composes its own. */
    private static QueryEngine engine(ObjectStore store) {
        return ReadSide.over(store).queryEngine(MeterProvider.noop());
    }

    static java.util.Map<String, Object> row(String shape, String side, Side s) {
        java.util.Map<String, Object> row = new java.util.LinkedHashMap<>();
        row.put("shape", shape);
        row.put("live set", side);
        row.put("files", s.stats().files());
        row.put("row groups scanned / total", s.stats().rowGroupsScanned() + " / " + s.stats().rowGroupsTotal());
        row.put("bytes read", s.stats().bytesRead());
        row.put("rows", s.stats().rows());
        row.put("median ms", s.millis().median());
        row.put("min ms", s.millis().min());
        row.put("max ms", s.millis().max());
        return row;
    }
}
