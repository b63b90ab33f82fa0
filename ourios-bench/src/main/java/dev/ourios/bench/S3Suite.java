package dev.ourios.bench;

import dev.ourios.compaction.RewriteResult;
import dev.ourios.compaction.SortedRewriter;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPlan;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.store.AtomicOutput;
import dev.ourios.store.CountingObjectStore;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.StoreRequests;
import dev.ourios.store.s3.S3ObjectStore;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compaction throughput over S3 against local disk: the same demo partition (d2's shape) compacted by our sorted
 * rewriter from a local store and from a copy of it in an s3proxy bucket on loopback (a child JVM), alternating
 * runs, medians. Each row also gives the store requests of the last run: measured HTTP requests on S3, the
 * S3-equivalent model on local disk ({@link CountingObjectStore}).
 */
public final class S3Suite implements Suite {
    static final String BUCKET = "bench";

    @Override
    public String name() {
        return "s3";
    }

    @Override
    public SuiteReport run(BenchContext ctx) throws Exception {
        BenchOptions o = ctx.options();
        SuiteReport.Builder report = new SuiteReport.Builder(name(), o.command());
        Fixture f = D2Suite.demoFixture(ctx);
        report.shape(f.describe());
        ctx.log().accept("s3: " + f.describe());
        Path scratch = ctx.fixtures().scratch("s3-scratch");
        try (S3Loopback server = S3Loopback.start(BUCKET);
                S3ObjectStore s3 = new S3ObjectStore(server.config(BUCKET, "s3suite"))) {
            ctx.log().accept("s3: s3proxy at " + server.endpoint() + ", uploading the inputs");
            for (ObjectInfo in : f.inputs()) {
                try (AtomicOutput out = s3.create(in.key());
                        InputStream src = Files.newInputStream(f.root().resolve(in.key()))) {
                    src.transferTo(out);
                    out.commit();
                }
            }
            List<ObjectInfo> s3Inputs = s3.listObjects(f.partition().dataPrefix()).stream()
                    .filter(i -> i.key().endsWith(".parquet")).toList();
            if (!s3Inputs.stream().map(ObjectInfo::key).toList().equals(f.inputs().stream().map(ObjectInfo::key)
                    .toList())) {
                throw new IllegalStateException("the S3 copy lists other inputs: " + s3Inputs);
            }
            StoreContender local = new StoreContender("local", f.store(), f.inputs(), scratch.resolve("local"), o);
            StoreContender remote = new StoreContender("s3proxy", s3, s3Inputs, scratch.resolve("s3"), o);
            Map<String, Contest.Result> results = new Contest(List.of(local, remote), o.warmups(), o.runs(),
                    ctx.log()).run(f);
            double base = results.get("local").seconds().median();
            for (Contest.Result r : results.values()) {
                StoreContender c = (StoreContender) r.contender();
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("store", c.name());
                row.put("input MiB", f.mib());
                row.put("rows", f.rows());
                row.put("median s", r.seconds().median());
                row.put("min s", r.seconds().min());
                row.put("max s", r.seconds().max());
                row.put("MiB/s", f.mib() / r.seconds().median());
                row.put("ratio", r.seconds().median() / base);
                row.put("cpu s (1 thread)", r.cpuSeconds().median());
                row.put("output bytes", r.last().bytesOut());
                row.put("rows out", r.last().rowsOut());
                StoreRequests q = c.lastRequests;
                row.put("requests", c.measured ? "measured" : "modelled");
                row.put("list", q.list());
                row.put("head", q.head());
                row.put("get", q.get());
                row.put("get bytes", q.getBytes());
                row.put("put", q.put());
                row.put("delete", q.delete());
                report.row(row);
            }
        }
        report.note("Time is the sorted rewrite only (read, validate, sort, write, checksum both sides, atomic "
                + "publish), the same code on both stores; s3proxy 4.1.0 (filesystem-nio2) runs on loopback as a "
                + "child JVM on the same machine, so it competes for the same cores and disk and has no network "
                + "latency: this measures the S3 client path and request pattern, not a real S3 service.");
        report.note("ratio = median seconds / median seconds of local (> 1: slower than local disk). Requests are "
                + "the last run's: measured HTTP requests on s3proxy (output PUT is multipart above 8 MiB), the "
                + "S3-equivalent model on local disk; the output delete after each run is not counted.");
        return report.build();
    }

    /** The sorted rewriter on one store; the output is deleted after each run so every run sees the same inputs. */
    static final class StoreContender implements Contender {
        private final String name;
        private final ObjectStore store;
        private final List<ObjectInfo> inputs;
        private final Path scratch;
        private final BenchOptions options;
        private final boolean measured;
        private StoreRequests lastRequests = StoreRequests.NONE;

        StoreContender(String name, ObjectStore store, List<ObjectInfo> inputs, Path scratch, BenchOptions options) {
            this.name = name;
            this.store = store;
            this.inputs = List.copyOf(inputs);
            this.scratch = scratch;
            this.options = options;
            this.measured = new CountingObjectStore(store).measured();
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Outcome run(Fixture f) throws Exception {
            long bytes = inputs.stream().mapToLong(ObjectInfo::size).sum();
            CompactionPlan plan = new CompactionPlan(f.partition(), 0, inputs, RowGroupSizing.adaptive(bytes),
                    options.budgetBytes(), CompactionOptions.DEFAULT_FAN_IN);
            CountingObjectStore counted = new CountingObjectStore(store);
            SortedRewriter rewriter = new SortedRewriter(counted, scratch.resolve("sort"));
            var threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            RewriteResult r = rewriter.rewrite(plan);
            double secs = (System.nanoTime() - t0) / 1e9;
            double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
            lastRequests = counted.requests();
            store.delete(r.outputKey());
            if (!r.checksumsMatch()) {
                throw new IllegalStateException(name + ": checksums differ: " + r);
            }
            return new Outcome(secs, cpu, r.rowsOut(), r.bytesOut(), r.rowGroups(), r.spilledRuns());
        }
    }
}
