package dev.ourios.cli;

import dev.ourios.server.query.DeletionJson;
import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.Deletion;
import dev.ourios.compaction.DeletionRequest;
import dev.ourios.compaction.DeletionResult;
import dev.ourios.compaction.DeletionSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.store.ObjectStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ourios delete}: removes the rows of one tenant that {@code ourios query} with the same filters returns, by
 * rewriting each affected partition without them through the compaction's commit protocol (cli.md). With
 * {@code --dry-run} it counts the matching rows per partition and changes nothing.
 */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete one tenant's rows matching filters (time window required) by "
        + "rewriting each affected partition; --dry-run counts them per partition")
public final class DeleteCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Mixin
    FilterFlags filters;

    @Option(names = "--dry-run", description = "Count the matching rows per partition and change nothing")
    boolean dryRun;

    @Option(names = "--json", description = "One JSON line per partition, then a summary line")
    boolean json;

    @Option(names = "--scratch", paramLabel = "DIR", description = "Scratch directory for the rewrite's sort runs "
            + "(default: the system temp directory)")
    Path scratch;

    @Override
    public Integer call() throws Exception {
        DeletionRequest request;
        try {
            request = new DeletionRequest(filters.toQuery());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Path scratchDir = scratch != null ? scratch : Path.of(System.getProperty("java.io.tmpdir"), "ourios-scratch");
        Output out = Output.system();
        try (ObjectStore s = store.open()) {
            CompactionOptions options = CompactionOptions.defaults(scratchDir)
                    .withRowGroupBytes(CompactionFlags.envRowGroupBytes());
            Deletion deletion = CompactionWiring.deletion(DeletionSettings.of(s, options));
            List<DeletionResult> results;
            try {
                results = deletion.run(request, dryRun, r -> print(out, r));
            } catch (java.io.IOException e) {
                throw new JobFailedException("listing the partitions of tenant '" + request.tenant() + "': "
                        + e.getMessage(), e);
            }
            return summary(out, request, results);
        }
    }

    private void print(Output out, DeletionResult r) {
        if (json) {
            out.jsonLine(DeletionJson.of(r));
        } else if (r.status() == DeletionResult.Status.ERROR) {
            out.err().println("ourios: " + r.error());
        } else {
            out.out().printf("%-20s %s  %-9s %3d files  %9d rows  %9d matching  -> %9d rows  gen %d%n",
                    r.partition().tenantId(), r.partition().hourLabel(), r.status().label(), r.filesIn(), r.rowsIn(),
                    r.rowsRemoved(), r.rowsOut(), r.generation());
        }
        out.out().flush();
    }

    private int summary(Output out, DeletionRequest request, List<DeletionResult> results) {
        long matching = results.stream().mapToLong(DeletionResult::rowsRemoved).sum();
        long rewritten = results.stream().filter(r -> r.status() == DeletionResult.Status.COMMITTED).count();
        long errors = results.stream().filter(r -> r.status() == DeletionResult.Status.ERROR).count();
        long affected = results.stream().filter(r -> r.rowsRemoved() > 0).count();
        if (json) {
            var s = Output.obj();
            s.put("dry_run", dryRun);
            s.put("filter", request.toMap());
            s.put("partitions", results.size());
            s.put("affected", affected);
            s.put("rewritten", rewritten);
            s.put(dryRun ? "rows_matching" : "rows_removed", matching);
            s.put("errors", errors);
            out.jsonLine(Map.of("summary", s));
        } else if (dryRun) {
            out.out().printf("dry run: %d rows match in %d of %d partitions; nothing changed%n", matching, affected,
                    results.size());
        } else {
            out.out().printf("delete: %d rows removed from %d partitions (%d scanned), %d error%n", matching,
                    rewritten, results.size(), errors);
        }
        return errors == 0 ? 0 : 1;
    }
}
