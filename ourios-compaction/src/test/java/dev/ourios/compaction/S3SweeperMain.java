package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.store.s3.S3Config;
import dev.ourios.store.s3.S3Credentials;
import dev.ourios.store.s3.S3ObjectStore;
import dev.ourios.store.s3.S3ProxyServer;
import dev.ourios.table.PartitionFilter;
import dev.ourios.testkit.Await;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A compactor process for multi-process tests: waits for {@code go}, sweeps an S3 store over and over until
 * {@code stop} exists, then sweeps once more and exits. Every partition result is one tab-separated stdout line:
 * {@code RESULT tenant hour result generation output reason-or-error}.
 *
 * <p>Arguments: endpoint bucket prefix scratch-dir go-file stop-file
 */
public final class S3SweeperMain {
    private S3SweeperMain() {
    }

    public static void main(String[] args) throws Exception {
        S3Config config = S3Config.of(args[1], args[2]).withEndpoint(URI.create(args[0]))
                .withCredentials(new S3Credentials(S3ProxyServer.IDENTITY, S3ProxyServer.CREDENTIAL));
        Path go = Path.of(args[4]);
        Path stop = Path.of(args[5]);
        try (S3ObjectStore store = new S3ObjectStore(config)) {
            SweepRunner runner = CompactionWiring.sweepRunner(SweepSettings.of(store,
                    CompactionOptions.defaults(Path.of(args[3]))).withPlanClock(TestStores.LATER));
            Await.until("the go file " + go, Duration.ofMinutes(5), () -> Files.exists(go));
            boolean last;
            do {
                last = Files.exists(stop); // read before sweeping: the final sweep starts after the writer stopped
                SweepReport report = runner.sweep(PartitionFilter.all(), S3SweeperMain::print);
                for (String e : report.errors()) {
                    System.out.println("SWEEP-ERROR\t" + e);
                }
            } while (!last);
        }
    }

    private static void print(PartitionResult r) {
        String detail = r.error() != null ? r.error() : r.reason() == null ? "" : r.reason();
        System.out.println(String.join("\t", "RESULT", r.partition().tenantId(), r.partition().hourLabel(),
                r.result().label(), Long.toString(r.generation()), String.valueOf(r.output()),
                detail.replace('\t', ' ').replace('\n', ' ')));
        System.out.flush();
    }
}
