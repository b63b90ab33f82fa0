package dev.ourios.cli.serve;

import dev.ourios.cli.CompactionFlags;
import dev.ourios.cli.StoreCheck;
import dev.ourios.cli.TelemetryEnvironment;
import dev.ourios.cli.UsageException;
import dev.ourios.cli.config.ConfigFileOption;
import dev.ourios.cli.config.ConfigKey;
import dev.ourios.cli.config.ConfigKeys;
import dev.ourios.cli.config.FlagDefaults;
import dev.ourios.cli.config.ConfigLoader;
import dev.ourios.cli.config.HttpConfig;
import dev.ourios.cli.config.IcebergConfig;
import dev.ourios.cli.config.OuriosConfig;
import dev.ourios.cli.config.ResolvedConfig;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.server.Server;
import dev.ourios.server.ServerSettings;
import dev.ourios.server.auth.AuthSettings;
import dev.ourios.server.iceberg.IcebergSettings;
import dev.ourios.server.otlp.OtlpSettings;
import dev.ourios.server.otlp.grpc.OtlpGrpcSettings;
import dev.ourios.server.query.QueryApiSettings;
import dev.ourios.server.sweep.SweepLoopSettings;
import dev.ourios.store.ObjectStore;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code ourios serve}: resolves the service's settings from flags, then {@code OURIOS_*} variables, then
 * {@code --config FILE}, then defaults, all validated before anything starts, checks the store exists, and runs
 * the {@link Server} of {@code ourios-server} on them (which listens, sweeps, syncs and drains on SIGTERM).
 */
@Command(name = "serve", mixinStandardHelpOptions = true, defaultValueProvider = FlagDefaults.Compaction.class,
        description = "Run the compaction daemon, the HTTP query endpoint "
        + "(POST /v1/query, GET /v1/files, POST /v1/delete, /healthz, /readyz) and the OTLP logs receivers "
        + "(OTLP/HTTP POST /v1/logs, OTLP/gRPC LogsService/Export)")
public final class ServeCommand implements Callable<Integer> {
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

    @Option(names = "--otlp-grpc", paramLabel = "HOST:PORT",
            description = "Address of the OTLP/gRPC logs receiver, LogsService/Export; 'off' for none (default: "
                    + "$OURIOS_INGEST_GRPC_LISTEN, the config file, or 127.0.0.1:4317)")
    String otlpGrpc;

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
            + "config file, or ${DEFAULT-VALUE})")
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
        CompactionOptions compaction;
        try {
            compaction = cfg.compaction().options()
                    .withRetention(flags.withTenantFlags(cfg.compaction().options().retention()));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage()); // --rollup with a --retention-tenant
        }
        ServerSettings settings = settings(cfg, iceberg, compaction, env);
        ObjectStore store = cfg.store().open();
        String label = ConfigKeys.STORE_URI + " " + cfg.store().uri();
        java.util.Optional<java.nio.file.Path> create;
        try {
            // A first start creates a local store whose parent exists; an unreadable store, or one under a missing
            // parent, is refused; /readyz and the flusher watch for one that goes away later (its marker).
            create = StoreCheck.requireServable(store, label);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        // Written once every setting (addresses, keys) is checked, just before anything listens.
        Server.run(settings, store, () -> {
            StoreCheck.prepareServable(store, label, create);
            create.ifPresent(d -> new dev.ourios.server.events.EventLog(System.err, java.time.Clock.systemUTC())
                    .info("ourios.store.created", "created the store directory " + d + " ("
                            + ConfigKeys.STORE_URI + ")", Map.of("ourios.store", cfg.store().uri())));
        });
        return 0;
    }

    /** The service's settings, one record per concern, from the validated configuration. */
    private ServerSettings settings(OuriosConfig cfg, IcebergConfig iceberg, CompactionOptions compaction,
            Map<String, String> env) {
        HttpConfig http = cfg.http();
        QueryApiSettings api = new QueryApiSettings(http.server(), ConfigKeys.HTTP_LISTEN, http.maxBodyBytes(),
                http.maxRows(), http.maxResponseBytes(), http.maxConcurrentQueries(), http.queryTimeout(), http.tail(),
                http.uiEnabled());
        return new ServerSettings(cfg.store().uri(), api,
                cfg.ingest().settings().map(s -> new OtlpSettings(s, ConfigKeys.INGEST_LISTEN,
                        ConfigKeys.INGEST_WAL_DIR, cfg.ingest().grpcListen()
                                .map(g -> new OtlpGrpcSettings(g, ConfigKeys.INGEST_GRPC_LISTEN)))),
                new SweepLoopSettings(cfg.compaction().enabled(), cfg.compaction().interval(), compaction),
                new IcebergSettings(iceberg.enabled(), iceberg.syncInterval(), iceberg.reconcileInterval(),
                        iceberg.form()),
                new AuthSettings(cfg.auth().keysFile(), cfg.auth().label(), insecureNoAuth),
                TelemetryEnvironment.read(env), cfg.drainTimeout());
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
}
