package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.iceberg.SparkAgreement;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.s3.S3ObjectStore;
import dev.ourios.store.s3.S3ProxyServer;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.testkit.SparkChild;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opt-in ({@code -Dourios.spark=true}, which also builds module ourios-spark): the store on an S3-compatible server
 * (s3proxy), written by the CLI as a user would ({@code --store s3://...}, endpoint and key pair from the
 * environment: a generated hour range, a compaction, late ingest files beside it, an Iceberg sync), read by Spark
 * 4.0 in local mode through Hadoop's {@code s3a} file system (hadoop-aws) with path-style requests over plain HTTP.
 *
 * <p>{@code ourios files} prints {@code s3://bucket/prefix/...} URIs; Spark is given the same URIs with the scheme
 * {@code s3a}. For seeded filters, Spark's own Parquet reader over them returns our engine's rows with every value
 * equal, reads only the files {@code ourios files --from/--to} printed (fewer than the tenant's when the query has
 * a window) and pushes the filters into the reader. The Iceberg view loaded from its {@code s3a://} warehouse either
 * refuses, naming the type Spark cannot read, or returns exactly the store's rows.
 */
class SparkReadsS3StoreTest {
    static final Instant START = Instant.parse("2026-05-04T06:00:00Z");
    static final List<String> TENANTS = List.of("acme", "globex");
    static final String STORE = "s3://logs/prod";

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void sparkReadsTheLiveSetOnS3ThroughS3aValueForValue() throws Exception {
        SparkChild spark = SparkAgreement.sparkOrSkip("ourios-spark,ourios-cli");
        long seed = SparkAgreement.seed("SparkReadsS3StoreTest");
        Random rnd = new Random(seed);
        try (S3ProxyServer s3 = S3ProxyServer.start()) {
            s3.createBucket("logs");
            Map<String, String> env = Map.of("OURIOS_S3_ENDPOINT", s3.endpoint().toString(),
                    "AWS_ACCESS_KEY_ID", S3ProxyServer.IDENTITY, "AWS_SECRET_ACCESS_KEY", S3ProxyServer.CREDENTIAL,
                    "AWS_REGION", "us-east-1");
            Instant hour1 = START.plusSeconds(3600);
            cli(env, "generate", "--tenant", TENANTS.get(0), "--tenant", TENANTS.get(1), "--start", START.toString(),
                    "--hours", "3", "--files-per-hour", "3", "--rows-per-file", "400", "--seed", Long.toString(seed));
            cli(env, "compact", "--once");
            cli(env, "generate", "--tenant", TENANTS.get(0), "--tenant", TENANTS.get(1), "--start", hour1.toString(),
                    "--hours", "1", "--files-per-hour", "1", "--rows-per-file", "150", "--seed",
                    Long.toString(seed + 1));
            cli(env, "iceberg", "sync", "--time-type", "long");

            try (S3ObjectStore store = new S3ObjectStore(s3.config("logs", "prod"))) {
                TableReader tables = new TableReader(store, new ManifestCodec());
                QueryEngine engine = new QueryEngine(store, new TableLayout(store), tables, MeterProvider.noop());
                String tenant = TENANTS.get(rnd.nextInt(TENANTS.size()));
                List<SparkAgreement.Case> cases = SparkAgreement.cases(rnd, tenant,
                        rows(engine, Query.tenant(tenant)), hour1);

                List<String> tenantFiles = files(env, tenant, Query.tenant(tenant));
                List<String> job = new ArrayList<>(List.of("emit\trows"));
                job.addAll(s3aSettings(s3));
                Map<String, List<String>> planned = new java.util.HashMap<>();
                for (SparkAgreement.Case c : cases) {
                    List<String> printed = files(env, tenant, c.query());
                    planned.put(c.name(), printed);
                    job.add("live\t" + c.name() + "\t" + SparkAgreement.where(c.query()) + "\t"
                            + String.join(",", printed.stream().map(SparkReadsS3StoreTest::s3a).toList()));
                    job.add("view\tview: " + c.name() + "\t" + s3a(STORE) + "\ticeberg.logs\t"
                            + SparkAgreement.where(c.query()));
                }
                job.add("view\tview\t" + s3a(STORE) + "\ticeberg.logs\ttrue");
                Map<String, SparkChild.Result> results = spark.run(job, dir.resolve("spark"), Duration.ofMinutes(10));

                for (SparkAgreement.Case c : cases) {
                    List<String> ours = rows(engine, c.query()).stream().map(SparkAgreement::fingerprint).toList();
                    SparkAgreement.assertAgrees(c, results.get(c.name()), ours, planned.get(c.name()).size(),
                            tenantFiles.size());
                    SparkAgreement.assertViewAgrees(c, results.get("view: " + c.name()), ours,
                            planned.get(c.name()).size(), (int) results.get("view").filesRead());
                }
                List<String> everyRow = new ArrayList<>();
                for (String t : TENANTS) {
                    rows(engine, Query.tenant(t)).forEach(r -> everyRow.add(SparkAgreement.fingerprint(r)));
                }
                SparkAgreement.assertReadsExactly(results.get("view"), everyRow);
            }
        }
    }

    /**
     * What a Spark user sets for a store on an S3-compatible server: the endpoint and its region, path-style
     * requests (no bucket host names), plain HTTP, a static key pair. {@code fs.s3.impl} binds the {@code s3}
     * scheme to the same file system for the Iceberg view, whose metadata names its files with the store's
     * {@code s3://} URIs.
     */
    static List<String> s3aSettings(S3ProxyServer s3) {
        return List.of(
                "conf\tspark.hadoop.fs.s3a.endpoint\t" + s3.endpoint(),
                "conf\tspark.hadoop.fs.s3a.endpoint.region\tus-east-1",
                "conf\tspark.hadoop.fs.s3a.path.style.access\ttrue",
                "conf\tspark.hadoop.fs.s3a.connection.ssl.enabled\tfalse",
                "conf\tspark.hadoop.fs.s3a.aws.credentials.provider\t"
                        + "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
                "conf\tspark.hadoop.fs.s3a.access.key\t" + S3ProxyServer.IDENTITY,
                "conf\tspark.hadoop.fs.s3a.secret.key\t" + S3ProxyServer.CREDENTIAL,
                "conf\tspark.hadoop.fs.s3.impl\torg.apache.hadoop.fs.s3a.S3AFileSystem");
    }

    /** An {@code s3://} URI as {@code ourios files} prints it, for Hadoop's s3a file system. */
    static String s3a(String uri) {
        assertTrue(uri.startsWith("s3://"), "not an s3:// URI: " + uri);
        return "s3a://" + uri.substring("s3://".length());
    }

    private List<String> files(Map<String, String> env, String tenant, Query q) throws Exception {
        List<String> args = new ArrayList<>(List.of("files", "--tenant", tenant));
        q.from().ifPresent(f -> args.addAll(List.of("--from", f.toString())));
        q.to().ifPresent(t -> args.addAll(List.of("--to", t.toString())));
        List<String> printed = cli(env, args.toArray(String[]::new)).outLines();
        assertFalse(printed.isEmpty(), "ourios files printed nothing for " + q);
        printed.forEach(p -> assertTrue(p.startsWith(STORE + "/data/tenant_id=" + tenant + "/"), p));
        return printed;
    }

    private CliProcess.Result cli(Map<String, String> env, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--store", STORE));
        CliProcess.Result r = CliProcess.run(dir, env, all.toArray(String[]::new));
        assertEquals(0, r.exit(), all + ": " + r.err());
        return r;
    }

    private static List<LogRecord> rows(QueryEngine engine, Query q) throws Exception {
        List<LogRecord> out = new ArrayList<>();
        engine.run(q, out::add);
        return out;
    }
}
