package dev.ourios.cli;

import dev.ourios.store.ObjectStore;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.GcReport;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionGcResult;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ourios gc}: deletes what compaction left behind once it is older than the grace: retired inputs,
 * unreferenced compaction outputs, temp files and superseded manifests. Never a live or non-retired ingest file.
 */
@Command(name = "gc", mixinStandardHelpOptions = true, description = "Reclaim retired files, orphans, temp files and superseded manifests older than the grace")
public final class GcCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Mixin
    ScopeFlags scope;

    @Option(names = "--grace", defaultValue = "10m", description = "Keep anything younger than this (default ${DEFAULT-VALUE})")
    String grace;

    @Option(names = "--dry-run", description = "List what would be deleted; delete nothing")
    boolean dryRun;

    @Option(names = "--json", description = "One JSON line per partition with deletions, then a summary")
    boolean json;

    @Override
    public Integer call() throws Exception {
        GcOptions options = new GcOptions(Units.parseDuration("--grace", grace), dryRun);
        Output out = Output.system();
        try (ObjectStore s = store.open()) {
            TableLayout layout = new TableLayout(s);
            GarbageCollector gc = new GarbageCollector(s, layout, new TableReader(s, new ManifestCodec()), options,
                    Clock.systemUTC());
            GcReport report = gc.run(scope.toFilter());
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
                        out.out().println((dryRun ? "would delete " : "deleted ") + s.describe(k));
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
                out.jsonLine(Map.of("summary", Map.of("dry_run", dryRun, "deleted", report.deletedKeys().size(),
                        "bytes", report.bytesReclaimed(), "aborted_uploads", report.abortedUploads().size(),
                        "errors", report.errors().size())));
            } else {
                int uploads = report.abortedUploads().size();
                out.out().printf("gc%s: %d objects, %s%s%s%n", dryRun ? " (dry run)" : "", report.deletedKeys().size(),
                        Units.formatBytes(report.bytesReclaimed()),
                        uploads == 0 ? "" : ", " + uploads + " incomplete upload(s)",
                        report.errors().isEmpty() ? "" : ", " + report.errors().size() + " partition(s) skipped");
            }
            return report.errors().isEmpty() ? 0 : 1;
        }
    }
}
