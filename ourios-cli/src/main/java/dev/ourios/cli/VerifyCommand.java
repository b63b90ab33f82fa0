package dev.ourios.cli;

import dev.ourios.compaction.Verifier;
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
 * rule and the checksums recorded at commit; changes nothing; exit 1 on any mismatch.
 */
@Command(name = "verify", description = "Re-read live files and check them against footers and recorded commit checksums")
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
        try (ObjectStore s = store.open()) {
            Verifier v = new Verifier(s, new TableLayout(s), new TableReader(s, new ManifestCodec()));
            List<Verifier.PartitionVerdict> verdicts = v.verify(scope.toFilter(), pv -> {
                if (json) {
                    var o = Output.obj();
                    o.put("tenant", pv.partition().tenantId());
                    o.put("partition", pv.partition().hourLabel());
                    o.put("result", pv.ok() ? "ok" : "mismatch");
                    o.put("generation", pv.generation());
                    o.put("files", pv.files());
                    o.put("rows", pv.rows());
                    o.put("problems", pv.problems());
                    out.jsonLine(o);
                } else {
                    out.out().printf("%-20s %s  %-8s gen %d, %d files, %d rows%n", pv.partition().tenantId(),
                            pv.partition().hourLabel(), pv.ok() ? "ok" : "MISMATCH", pv.generation(), pv.files(),
                            pv.rows());
                }
                pv.problems().forEach(pr -> out.err().println("ourios: " + pr));
            });
            long bad = verdicts.stream().filter(pv -> !pv.ok()).count();
            if (json) {
                out.jsonLine(Map.of("summary", Map.of("partitions", verdicts.size(), "mismatched", bad)));
            } else {
                out.out().printf("verified %d partitions: %d mismatched%n", verdicts.size(), bad);
            }
            return bad == 0 ? 0 : 1;
        }
    }
}
