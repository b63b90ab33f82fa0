package dev.ourios.bench.soak;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.List;
import java.util.Locale;

/** Renders a {@link SoakResult} as Markdown (pasted into docs/benchmarks.md) and as JSON (every sample). */
public final class SoakReport {
    /** At most this many timeline rows in the Markdown; the JSON has them all. */
    private static final int TABLE_ROWS = 16;

    private final SoakResult r;

    public SoakReport(SoakResult result) {
        this.r = result;
    }

    public String json() {
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(r);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: soak result not serialisable", e);
        }
    }

    public String markdown(String chartFile) {
        StringBuilder sb = new StringBuilder();
        IngestProgress in = r.ingest();
        Survey fin = r.finalStore();
        CompactionTally c = r.compaction();
        sb.append("* command: `").append(r.command()).append("`\n");
        sb.append("* machine: ").append(r.machine().describe()).append('\n');
        sb.append("* data: ").append(r.shape()).append('\n');
        sb.append("* chart: ![soak timeline](").append(chartFile).append(")\n\n");
        sb.append("| measure | value |\n|---|---|\n");
        row(sb, "ingest rate achieved (lines/s)", String.format(Locale.ROOT, "%,.0f (scheduled %,.0f; %s)",
                r.achievedRate(), r.scheduledRate(), r.sustained() ? "sustained" : "NOT sustained"));
        row(sb, "ingest", String.format(Locale.ROOT, "%,d rows in %,d files (%d late, %d of them into an "
                + "already-compacted hour), %.1f MiB, %.1f s wall; max writer lag %.2f s", in.rows(), in.files(),
                in.lateFiles(), in.lateIntoCompacted(), in.bytes() / 1048576.0, r.ingestSeconds(),
                in.maxLagSeconds()));
        row(sb, "partitions sealed", fin.sealed() + " of " + fin.partitions());
        row(sb, "compactions", String.format(Locale.ROOT, "%d committed (%,d rows rewritten, %.2f per landed row), "
                + "%d noop, %d errors, %d sweeps", c.committed(), c.rowsIn(),
                in.rows() == 0 ? 0.0 : (double) c.rowsIn() / in.rows(), c.noops(), c.errors(), c.sweeps()));
        row(sb, "backlog (partitions)", String.format(Locale.ROOT, "max %d, final %d; zero %s", r.backlogMax(),
                fin.backlog(), r.drainSeconds() >= 0 ? String.format(Locale.ROOT, "%.1f s after ingest stopped",
                        r.drainSeconds()) : "NOT reached"));
        row(sb, "live files / bytes at the end", String.format(Locale.ROOT, "%d files, %.1f MiB (ingest files "
                + "landed: %d)", fin.liveFiles(), fin.liveBytes() / 1048576.0, in.files()));
        row(sb, "template-exact query p50 / p95", String.format(Locale.ROOT, "%.1f / %.1f ms (template %s, "
                + "first tenant, all hours)", r.templateP50Ms(), r.templateP95Ms(), r.templateId()));
        row(sb, "one-service 30 s window p50 / p95", String.format(Locale.ROOT, "%.1f / %.1f ms (service %s, "
                + "latest sealed hour)", r.serviceP50Ms(), r.serviceP95Ms(), r.service()));
        row(sb, "query errors", Long.toString(r.queryErrors()));
        row(sb, "machine load (1-min load average over the samples)", String.format(Locale.ROOT,
                "min %.1f, median %.1f, max %.1f on %d cores", r.samples().stream().mapToDouble(Sample::loadAverage)
                        .min().orElse(-1), SoakRun.pct(r.samples().stream().map(Sample::loadAverage).toList(), 50),
                r.samples().stream().mapToDouble(Sample::loadAverage).max().orElse(-1), r.machine().cores()));
        sb.append('\n');
        for (Check k : r.checks()) {
            sb.append("* ").append(k.ok() ? "PASS" : "FAIL").append(" — ").append(k.name()).append(": ")
                    .append(k.observed()).append('\n');
        }
        if (!r.tenantFiles().isEmpty() && r.tenantFiles().stream().anyMatch(t -> t.days() > 0)) {
            sb.append(String.format(Locale.ROOT, "%nFiles per tenant over its whole days (H4: files below %,d bytes):"
                    + "%n%n", r.smallFileBytes()));
            sb.append("| tenant | class | days | landed MiB a day | live MiB a day | files a day | share below | "
                    + "rows rewritten per landed row (of it, the rollup) |\n|---|---|---|---|---|---|---|---|\n");
            for (TenantFiles.Share t : r.tenantFiles()) {
                double days = Math.max(1, t.days());
                sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %.2f | %.2f | %.2f | %.1f %% | %.2f (%.2f) |%n",
                        t.tenant(), t.tenantClass(), t.days(), t.landedBytes() / 1048576.0 / days,
                        t.liveBytesPerDay() / 1048576.0, t.filesPerDay(), 100 * t.shareBelow(),
                        t.rewrittenPerLandedRow(), t.rolledUpPerLandedRow()));
            }
        }
        sb.append("\nTimeline (every ").append(Math.max(1, r.samples().size() / TABLE_ROWS))
                .append(". sample of ").append(r.samples().size()).append("; all in the JSON):\n\n");
        sb.append("| wall s | sim time | files landed | partitions | sealed | backlog | live files | live MiB | "
                + "compactions | template ms (files) | service ms (files) |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        List<Sample> s = r.samples();
        int step = Math.max(1, s.size() / TABLE_ROWS);
        for (int i = 0; i < s.size(); i++) {
            if (i % step != 0 && i != s.size() - 1) {
                continue;
            }
            Sample p = s.get(i);
            sb.append(String.format(Locale.ROOT, "| %.0f | %s | %d | %d | %d | %d | %d | %.1f | %d | %.1f (%d) | "
                    + "%.1f (%d) |%n", p.wallSeconds(), p.simTime().substring(0, Math.min(16, p.simTime().length())),
                    p.ingest().files(), p.store().partitions(), p.store().sealed(), p.store().backlog(),
                    p.store().liveFiles(), p.store().liveBytes() / 1048576.0, p.compactions(), p.template().ms(),
                    p.template().files(), p.service().ms(), p.service().files()));
        }
        return sb.toString();
    }

    private static void row(StringBuilder sb, String k, String v) {
        sb.append("| ").append(k).append(" | ").append(v).append(" |\n");
    }
}
