package dev.ourios.cli;

import dev.ourios.cli.config.FlagDefaults;
import dev.ourios.iceberg.IcebergWiring;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.sweep.DebrisCollector;
import dev.ourios.compaction.sweep.DebrisReport;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.GcReport;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.PartitionGcResult;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ourios gc}: deletes what compaction left behind once it is older than the grace: retired inputs,
 * unreferenced compaction outputs, temp files and superseded manifests. Never a live or non-retired ingest file.
 * It also collects the debris of killed compactions that lies outside the partitions, as every sweep does: audit
 * temp files in the store, and sort scratch of processes that are gone in {@code --scratch}.
 */
@Command(name = "gc", mixinStandardHelpOptions = true, defaultValueProvider = FlagDefaults.Gc.class,
        description = "Reclaim retired files, orphans, temp files and superseded manifests older than the grace")
public final class GcCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Mixin
    ScopeFlags scope;

    @Option(names = "--grace", description = "Keep anything younger than this (default ${DEFAULT-VALUE})")
    String grace;

    @Option(names = "--dry-run", description = "List what would be deleted; delete nothing")
    boolean dryRun;

    @Option(names = "--json", description = "One JSON line per partition with deletions, then a summary")
    boolean json;

    @Option(names = "--scratch", paramLabel = "DIR",
            description = "Compaction scratch directory to collect debris from (default: the system temp directory)")
    Path scratch;

    @Option(names = "--scratch-debris-age", paramLabel = "DURATION",
            description = "Delete scratch left by a compaction process that is gone once this old "
                    + "(default ${DEFAULT-VALUE})")
    String scratchDebrisAge;

    @Override
    public Integer call() throws Exception {
        GcOptions options = new GcOptions(Units.parseDuration("--grace", grace), dryRun);
        Duration debrisAge = Units.parseDuration("--scratch-debris-age", scratchDebrisAge);
        PartitionFilter filter = scope.toFilter();
        Output out = Output.system();
        try (ObjectStore s = store.open()) {
            TableLayout layout = new TableLayout(s);
            // Files a retained Iceberg snapshot references are kept (a store without a view retains nothing), and
            // so is a superseded manifest whose commit's audit event is not written yet: a sweep re-emits it from
            // that manifest. This command writes no event; the scratch directory is only AuditLog's to hold.
            TableReader reader = new TableReader(s, new ManifestCodec());
            AuditLog audit = new AuditLog(s, scratch != null ? scratch : Path.of(System.getProperty("java.io.tmpdir")));
            GarbageCollector gc = new GarbageCollector(s, layout, reader, options, Clock.systemUTC(),
                    IcebergWiring.retention(IcebergWiring.view(s, store.uri()), Clock.systemUTC()),
                    audit.commitAudit(reader));
            GcReport report = gc.run(filter);
            DebrisReport debris = new DebrisCollector(s, layout, scratch, options.grace(), debrisAge,
                    Clock.systemUTC(), dryRun).collect(filter);
            for (PartitionGcResult p : report.partitions()) {
                if (p.deletedKeys().isEmpty() && p.errors().isEmpty() && p.abortedUploads().isEmpty()) {
                    continue;
                }
                if (json) {
                    var o = Output.obj();
                    o.put("tenant", p.partition().tenantId());
                    o.put("partition", p.partition().hourLabel());
                    o.put(dryRun ? "would_delete" : "deleted", p.deletedKeys());
                    o.put("bytes", p.bytesReclaimed());
                    o.put(dryRun ? "would_abort_uploads" : "aborted_uploads", p.abortedUploads());
                    o.put("errors", p.errors());
                    out.jsonLine(o);
                } else {
                    for (String k : p.deletedKeys()) {
                        out.out().println((dryRun ? "would delete " : "deleted ") + TableText.escape(s.describe(k)));
                    }
                    String verb = dryRun ? "would abort" : "aborted";
                    for (String u : p.abortedUploads()) {
                        out.out().println(verb + " incomplete upload " + u);
                    }
                }
                for (String e : p.errors()) {
                    out.err().println("ourios: " + e);
                }
            }
            if (json) {
                if (debris.count() > 0) {
                    out.jsonLine(Map.of(dryRun ? "would_delete_debris" : "deleted_debris", debris.removed(),
                            "bytes", debris.bytes()));
                }
                var summary = Output.obj();
                summary.put("dry_run", dryRun);
                summary.put("deleted", report.deletedKeys().size() + debris.count());
                summary.put("bytes", report.bytesReclaimed() + debris.bytes());
                summary.put("debris", debris.count());
                summary.put("aborted_uploads", report.abortedUploads().size());
                summary.put("errors", report.errors().size());
                out.jsonLine(Map.of("summary", summary));
            } else {
                for (String d : debris.removed()) {
                    out.out().println((dryRun ? "would delete " : "deleted ") + TableText.escape(d));
                }
                int uploads = report.abortedUploads().size();
                out.out().printf("gc%s: %d objects, %s%s%s%n", dryRun ? " (dry run)" : "",
                        report.deletedKeys().size() + debris.count(),
                        Units.formatBytes(report.bytesReclaimed() + debris.bytes()),
                        uploads == 0 ? "" : ", " + uploads + " incomplete upload(s)",
                        report.errors().isEmpty() ? "" : ", " + report.errors().size() + " partition(s) skipped");
            }
            return report.errors().isEmpty() ? 0 : 1;
        }
    }
}
