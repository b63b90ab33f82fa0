package dev.ourios.cli;

import dev.ourios.compaction.verify.Verifier;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ourios verify}: a scrub an operator can schedule. Re-reads live files and checks footers, the row-vs-path
 * rule and the checksums recorded at commit; changes nothing; exit 1 on any mismatch. A partition whose manifest
 * records no checksum (written by another tool or by hand) is reported as such and does not fail the run: there is
 * nothing wrong with it, only less to check.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Re-read live files and check them against footers and recorded commit checksums")
public final class VerifyCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Mixin
    ScopeFlags scope;

    @Option(names = "--json", description = "One JSON line per partition, then a summary")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Output out = Output.system();
        var filter = scope.toFilter();
        try (ObjectStore s = store.open()) {
            UnknownTenants.report(s, store.uri(), filter.tenants().map(java.util.TreeSet::new)
                    .orElseGet(java.util.TreeSet::new), out.err());
            Verifier v = new Verifier(s, new TableLayout(s), new TableReader(s, new ManifestCodec()));
            List<Verifier.PartitionVerdict> verdicts = v.verify(filter, pv -> {
                if (json) {
                    var o = Output.obj();
                    o.put("tenant", pv.partition().tenantId());
                    o.put("partition", pv.partition().hourLabel());
                    o.put("result", jsonResult(pv.status()));
                    o.put("generation", pv.generation());
                    o.put("files", pv.files());
                    o.put("rows", pv.rows());
                    o.put("problems", pv.problems());
                    out.jsonLine(o);
                } else {
                    out.out().printf("%-20s %s  %-20s gen %d, %d files, %d rows%n",
                            TableText.escape(pv.partition().tenantId()),
                            pv.partition().hourLabel(), textResult(pv.status()), pv.generation(), pv.files(),
                            pv.rows());
                }
                pv.problems().forEach(pr -> out.err().println("ourios: " + TableText.escape(pr)));
            });
            long bad = count(verdicts, Verifier.Status.MISMATCH);
            long noChecksum = count(verdicts, Verifier.Status.NO_RECORDED_CHECKSUM);
            if (json) {
                var summary = Output.obj();
                summary.put("partitions", verdicts.size());
                summary.put("mismatched", bad);
                summary.put("no_checksum", noChecksum);
                out.jsonLine(Map.of("summary", summary));
            } else {
                out.out().printf("verified %d partitions: %d mismatched, %d with no recorded checksum%n",
                        verdicts.size(), bad, noChecksum);
            }
            return bad == 0 ? 0 : 1;
        }
    }

    private static long count(List<Verifier.PartitionVerdict> verdicts, Verifier.Status status) {
        return verdicts.stream().filter(pv -> pv.status() == status).count();
    }

    private static String jsonResult(Verifier.Status status) {
        return switch (status) {
            case OK -> "ok";
            case NO_RECORDED_CHECKSUM -> "no_checksum";
            case MISMATCH -> "mismatch";
        };
    }

    private static String textResult(Verifier.Status status) {
        return switch (status) {
            case OK -> "ok";
            case NO_RECORDED_CHECKSUM -> "no recorded checksum";
            case MISMATCH -> "MISMATCH";
        };
    }
}
