package dev.ourios.cli.serve;

import dev.ourios.cli.CompactionFlags;
import dev.ourios.cli.Shutdown;
import dev.ourios.cli.StoreCheck;
import dev.ourios.cli.SweepLoop;
import dev.ourios.cli.Telemetry;
import dev.ourios.cli.config.ConfigFileOption;
import dev.ourios.cli.config.ConfigKey;
import dev.ourios.cli.config.ConfigKeys;
import dev.ourios.cli.config.ConfigLoader;
import dev.ourios.cli.config.IcebergConfig;
import dev.ourios.cli.config.ResolvedConfig;
import dev.ourios.cli.config.OuriosConfig;
import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.DeletionSettings;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.core.Retention;
import dev.ourios.iceberg.IcebergView;
import dev.ourios.iceberg.IcebergWiring;
import dev.ourios.iceberg.PendingPartitions;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.ingest.IngestMetrics;
import dev.ourios.ingest.IngestSettings;
import dev.ourios.ingest.Ingester;
import dev.ourios.http.PemStores;
import dev.ourios.http.AuthorizingGate;
import dev.ourios.http.RequestGate;
import dev.ourios.ingest.http.OtlpHttpReceiver;
import dev.ourios.query.LiveFiles;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.LiveSetChanges;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import dev.ourios.cli.UsageException;
import dev.ourios.cli.auth.ServeAuth;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code ourios serve}: the compaction daemon and the HTTP query endpoint in one long-lived process. Settings come
 * from flags, then {@code OURIOS_*} variables, then {@code --config FILE}, then defaults, all validated before
 * anything starts. Logs are JSON lines on stderr. SIGTERM drains: readiness turns 503, no new partition starts,
 * running ones finish, accepted requests are answered, the server stops, telemetry is flushed, exit 0.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the compaction daemon, the HTTP query endpoint "
        + "(POST /v1/query, GET /v1/files, POST /v1/delete, /healthz, /readyz) and the OTLP/HTTP logs receiver (POST /v1/logs)")
public final class ServeCommand implements Callable<Integer> {
    /** How long accepted HTTP requests may take to finish once the sweeps have drained. */
    static final Duration HTTP_DRAIN = Duration.ofSeconds(10);

    @Mixin
    ConfigFileOption config;

    @Option(names = "--store", paramLabel = "URI",
            description = "Store: a directory, file:///... or s3://bucket/prefix (default: $OURIOS_STORE, the "
                    + "config file, or ./ourios-data)")
    String store;

    @Option(names = "--s3-endpoint", paramLabel = "URL", description = "S3-compatible endpoint (default: "
            + "$OURIOS_S3_ENDPOINT or the config file)")
    String s3Endpoint;

    @Option(names = "--http", paramLabel = "HOST:PORT",
            description = "Address of the HTTP endpoint (default: $OURIOS_HTTP, the config file, or 127.0.0.1:4319)")
    String http;

    @Option(names = "--otlp-http", paramLabel = "HOST:PORT",
            description = "Address of the OTLP/HTTP logs receiver, POST /v1/logs (default: $OURIOS_OTLP_HTTP, the "
                    + "config file, or 127.0.0.1:4318)")
    String otlpHttp;

    @Option(names = "--wal-dir", paramLabel = "DIR",
            description = "Write-ahead log of the receiver, on local disk (default: $OURIOS_INGEST_WAL_DIR, the config "
                    + "file, or <store>/../ourios-wal; required for an S3 store)")
    String walDir;

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "PEM certificate chain: both ports speak HTTPS "
            + "only (with --tls-key; default: $OURIOS_TLS_CERT or the config file)")
    String tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "PEM private key of --tls-cert, unencrypted "
            + "PKCS#8 (default: $OURIOS_TLS_KEY or the config file)")
    String tlsKey;

    @Option(names = "--tls-client-ca", paramLabel = "FILE", description = "PEM CA certificates: clients must present a "
            + "certificate they issued (mutual TLS; default: $OURIOS_TLS_CLIENT_CA or the config file)")
    String tlsClientCa;

    @Option(names = "--keys-file", paramLabel = "FILE",
            description = "API keys file (default: $OURIOS_AUTH_KEYS_FILE or the config file); without one, only "
                    + "loopback addresses are served")
    String keysFile;

    @Option(names = "--insecure-no-auth",
            description = "Serve non-loopback addresses without API keys: anyone who reaches them reads and writes "
                    + "every tenant (logged as a warning at every start)")
    boolean insecureNoAuth;

    @Option(names = "--interval", description = "Time between sweeps (default: $OURIOS_COMPACTION_INTERVAL, the "
            + "config file, or 5m)")
    String interval;

    /** The same knobs as {@code ourios compact}; only the ones given on the command line override the config. */
    @Mixin
    CompactionFlags flags;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Map<String, String> env = System.getenv();
        ConfigKeys keys = ConfigKeys.standard();
        ResolvedConfig resolved = new ConfigLoader(keys, env).load(config.file(env), givenFlags(keys));
        OuriosConfig cfg = OuriosConfig.from(resolved, keys);
        IcebergConfig iceberg = IcebergConfig.from(resolved);
        // --retention-tenant entries override the file's retention.tenants, as every flag overrides the file.
        CompactionOptions compaction = cfg.compaction().options()
                .withRetention(flags.withTenantFlags(cfg.compaction().options().retention()));
        EventLog events = new EventLog(System.err, Clock.systemUTC());
        // Opened first, closed last: the SIGTERM hook halts with 0 only after everything below is closed/flushed.
        try (Shutdown drain = Shutdown.onSignal(cfg.drainTimeout(),
                        msg -> events.info("ourios.serve.draining", msg, Map.of()));
                ObjectStore s = cfg.store().open();
                Telemetry telemetry = Telemetry.fromEnvironment()) {
            // A missing or unreadable store is refused at start; /readyz watches for one that goes away later.
            StoreCheck.requireExisting(s, ConfigKeys.STORE_URI + " " + cfg.store().uri());
            // Before anything listens: the address rule, the keys file and its SIGHUP reload; auth.authorizer()
            // decides requests (API key, scope, tenant).
            ServeAuth auth = ServeAuth.start(cfg, insecureNoAuth, telemetry.meterProvider(), Clock.systemUTC(),
                    msg -> events.warn("ourios.serve.insecure_no_auth", msg, Map.of()),
                    msg -> events.info("ourios.auth.keys.reloaded", msg, Map.of()));
            TableLayout layout = new TableLayout(s);
            TableReader tables = new TableReader(s, new ManifestCodec());
            // Every /v1/* request of both ports passes this one gate before its body is read: where an
            // authorizer checks the request's headers and answers 400/401/403.
            RequestGate gate = new AuthorizingGate(auth.authorizer());
            StoreProbe probe = new StoreProbe(s, drain::stopRequested);
            // Every component below that changes a partition's live set reports it here, for the Iceberg view.
            PendingPartitions changed = new PendingPartitions(IcebergSyncLoop.MAX_PENDING_PARTITIONS);
            LiveSetChanges changes = iceberg.enabled() ? changed : LiveSetChanges.NONE;
            // POST /v1/delete rewrites partitions with the compaction's options (scratch, sort budget, GC grace).
            DeleteEndpoint deletes = new DeleteEndpoint(CompactionWiring.deletion(DeletionSettings.of(s, compaction)
                    .withLiveSetChanges(changes)), probe, events);
            HttpApi api = new HttpApi(cfg.http(), new QueryEngine(s, layout, tables, telemetry.meterProvider()),
                    new LiveFiles(s, layout, tables), probe, events, gate, deletes);
            // The receiver first: opening it replays the WAL, so what was acknowledged before a crash is flushed.
            Ingester ingester = cfg.ingest().settings().isPresent()
                    ? openIngester(cfg.ingest().settings().get(), s, telemetry, compaction.retention(), changes) : null;
            OtlpHttpReceiver receiver = ingester == null ? null
                    : new OtlpHttpReceiver(ingester, cfg.http().server(), gate);
            InetSocketAddress otlp = receiver == null ? null : startReceiver(receiver, cfg.ingest().settings().get());
            if (ingester != null) {
                drain.whenStopping(ingester::stopAccepting);
            }
            InetSocketAddress bound = api.start();
            JsonStderr.install(events);
            String scheme = cfg.http().server().scheme();
            events.info("ourios.serve.started", "serving " + scheme + "://" + bound.getHostString() + ":"
                    + bound.getPort() + (otlp == null ? "" : ", OTLP/HTTP logs on " + scheme + "://"
                    + otlp.getHostString() + ":" + otlp.getPort())
                    + " on " + cfg.store().uri(), started(cfg, bound, otlp));
            // One view for both: GC keeps what its snapshots reference, and the sync moves it on.
            IcebergView view = IcebergWiring.view(s, cfg.store().uri());
            IcebergSyncLoop viewSync = !iceberg.enabled() ? null
                    : new IcebergSyncLoop(IcebergWiring.sync(s, view, Clock.systemUTC(), iceberg.form()), changed, events,
                            Clock.systemUTC(), iceberg.syncInterval(), iceberg.reconcileInterval());
            if (viewSync != null) {
                viewSync.start();
            }
            try {
                if (cfg.compaction().enabled()) {
                    SweepRunner runner = CompactionWiring.sweepRunner(SweepSettings.of(s, compaction)
                            .withMeters(telemetry.meterProvider())
                            .withFileRetention(IcebergWiring.retention(view, Clock.systemUTC()))
                            .withLiveSetChanges(changes));
                    new SweepLoop(runner, PartitionFilter.all(), cfg.compaction().interval(), drain)
                            .run(new SweepEvents(events));
                } else {
                    while (!drain.stopRequested()) {
                        drain.sleep(Duration.ofHours(1));
                    }
                }
            } finally {
                if (receiver != null) {
                    // Stop accepting, answer what was accepted, then flush every record the WAL holds.
                    receiver.stop(HTTP_DRAIN);
                    boolean flushed = ingester.drain(cfg.drainTimeout());
                    events.info("ourios.ingest.drained", flushed ? "ingest drained: every record flushed"
                            : "ingest drain incomplete: the rest stays in the WAL for the next start", Map.of());
                }
                api.stop(HTTP_DRAIN);
                if (viewSync != null) {
                    // After the drain: the files its last flushes landed reach the view in one last sync.
                    viewSync.stop(HTTP_DRAIN);
                }
            }
            events.info("ourios.serve.stopped", "stopped: sweeps drained, HTTP server closed", Map.of());
        }
        return 0;
    }

    /** Flags given on the command line, by key; picocli's defaults must not override the file or environment. */
    private Map<String, String> givenFlags(ConfigKeys keys) {
        ParseResult parsed = spec.commandLine().getParseResult();
        Map<String, String> out = new HashMap<>();
        for (ConfigKey k : keys.all()) {
            if (k.flag().isPresent() && parsed.hasMatchedOption(k.flag().get())) {
                Object v = parsed.matchedOptionValue(k.flag().get(), null);
                if (v != null) {
                    out.put(k.name(), v.toString());
                }
            }
        }
        return out;
    }

    private static Ingester openIngester(IngestSettings settings, ObjectStore store, Telemetry telemetry,
            Retention retention, LiveSetChanges changes) {
        try {
            return Ingester.open(settings, store, new IngestMetrics(telemetry.meterProvider()), retention,
                    Clock.systemUTC(), changes);
        } catch (IOException e) {
            throw new UsageException(ConfigKeys.INGEST_WAL_DIR + ": " + e.getMessage(), e);
        }
    }

    private static InetSocketAddress startReceiver(OtlpHttpReceiver receiver, IngestSettings settings) {
        try {
            return receiver.start();
        } catch (PemStores.PemException e) {
            throw new UsageException("tls: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UsageException(ConfigKeys.INGEST_LISTEN + ": cannot listen on "
                    + settings.listen().getHostString() + ":" + settings.listen().getPort() + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> started(OuriosConfig cfg, InetSocketAddress bound, InetSocketAddress otlp) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("server.address", bound.getHostString());
        a.put("server.port", bound.getPort());
        a.put("url.scheme", cfg.http().server().scheme());
        if (otlp != null) {
            a.put("ourios.ingest.port", otlp.getPort());
            a.put("ourios.ingest.wal_dir", cfg.ingest().settings().get().walDir().toString());
        }
        a.put("ourios.store", cfg.store().uri());
        a.put("ourios.compaction.enabled", cfg.compaction().enabled());
        a.put("ourios.compaction.interval", cfg.compaction().interval().toString());
        return a;
    }
}
