package dev.ourios.cli.config;

import dev.ourios.ingest.IngestSettings;
import dev.ourios.cli.Units;
import dev.ourios.cli.config.ConfigKey.Kind;
import dev.ourios.cli.config.ConfigKey.Range;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.store.s3.S3Timeouts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every setting of the configuration file, in the order {@code config check} prints them: the one registry of each
 * setting's name, variable, flag, default, range and unit. The loader, the validation, the printed configuration, the
 * defaults of the compaction flags ({@link FlagDefaults}) and the settings tables of docs/spec/cli.md and
 * docs/operations.md (checked by a test) are written from it. A default the compaction library also needs is its
 * constant ({@link CompactionOptions}, {@link S3Timeouts}), rendered here in the syntax a flag takes.
 */
public final class ConfigKeys {
    public static final String STORE_URI = "store.uri";
    public static final String S3_ENDPOINT = "store.s3.endpoint";
    public static final String S3_REGION = "store.s3.region";
    public static final String S3_ACCESS_KEY_ID = "store.s3.access_key_id";
    public static final String S3_SECRET_ACCESS_KEY = "store.s3.secret_access_key";
    public static final String S3_CONNECT_TIMEOUT = "store.s3.connect_timeout";
    public static final String S3_READ_TIMEOUT = "store.s3.read_timeout";
    public static final String S3_ATTEMPT_TIMEOUT = "store.s3.attempt_timeout";
    public static final String S3_CALL_TIMEOUT = "store.s3.call_timeout";
    public static final String HTTP_LISTEN = "http.listen";
    public static final String HTTP_MAX_BODY_BYTES = "http.max_body_bytes";
    public static final String HTTP_THREADS = "http.threads";
    public static final String HTTP_QUEUE = "http.queue";
    public static final String HTTP_MAX_ROWS = "http.max_rows";
    public static final String HTTP_MAX_RESPONSE_BYTES = "http.max_response_bytes";
    public static final String HTTP_MAX_CONCURRENT_QUERIES = "http.max_concurrent_queries";
    public static final String HTTP_QUERY_TIMEOUT = "http.query_timeout";
    public static final String HTTP_UI_ENABLED = "http.ui_enabled";
    public static final String HTTP_TAIL_MAX_CLIENTS = "http.tail_max_clients";
    public static final String HTTP_TAIL_QUEUE_ROWS = "http.tail_queue_rows";
    public static final String HTTP_TAIL_HEARTBEAT = "http.tail_heartbeat";
    public static final String HTTP_HEADER_TIMEOUT = "http.header_timeout";
    public static final String HTTP_BODY_TIMEOUT = "http.body_timeout";
    public static final String HTTP_IDLE_TIMEOUT = "http.idle_timeout";
    public static final String HTTP_MAX_CONNECTIONS = "http.max_connections";
    public static final String TLS_CERT = "tls.cert";
    public static final String TLS_KEY = "tls.key";
    public static final String TLS_CLIENT_CA = "tls.client_ca";
    public static final String COMPACTION_ENABLED = "compaction.enabled";
    public static final String COMPACTION_INTERVAL = "compaction.interval";
    public static final String GRACE = "compaction.grace";
    public static final String MIN_FILES = "compaction.min_files";
    public static final String MAX_TAIL_RATIO = "compaction.max_tail_ratio";
    public static final String SMALL_FILE_BYTES = "compaction.small_file_bytes";
    public static final String MAX_FILE_BYTES = "compaction.max_file_bytes";
    public static final String ROLLUP = "compaction.rollup";
    public static final String SORT_BUDGET = "compaction.sort_budget";
    public static final String FAN_IN = "compaction.fan_in";
    public static final String ROW_GROUP_BYTES = "compaction.row_group_bytes";
    public static final String CONCURRENCY = "compaction.concurrency";
    public static final String SHARE_WORKERS = "compaction.share_workers";
    public static final String GC_GRACE = "compaction.gc_grace";
    public static final String SCRATCH = "compaction.scratch";
    public static final String SCRATCH_DEBRIS_AGE = "compaction.scratch_debris_age";
    public static final String MAX_READ_RATE = "compaction.max_read_rate";
    public static final String MAX_WRITE_RATE = "compaction.max_write_rate";
    public static final String DRAIN_TIMEOUT = "shutdown.drain_timeout";
    public static final String ICEBERG_ENABLED = "iceberg.enabled";
    public static final String ICEBERG_RECONCILE_INTERVAL = "iceberg.reconcile_interval";
    public static final String ICEBERG_SYNC_INTERVAL = "iceberg.sync_interval";
    public static final String ICEBERG_TIME_TYPE = "iceberg.time_type";
    public static final String INGEST_ENABLED = "ingest.enabled";
    public static final String INGEST_LISTEN = "ingest.listen";
    public static final String INGEST_GRPC_LISTEN = "ingest.grpc_listen";
    /** The value of {@link #INGEST_GRPC_LISTEN} that turns the OTLP/gRPC receiver off. */
    public static final String OFF = "off";
    public static final String INGEST_WAL_DIR = "ingest.wal_dir";
    public static final String INGEST_FLUSH_BYTES = "ingest.flush_bytes";
    public static final String INGEST_FLUSH_INTERVAL = "ingest.flush_interval";
    public static final String INGEST_MAX_BUFFER_BYTES = "ingest.max_buffer_bytes";
    public static final String INGEST_MAX_TENANT_BUFFER_SHARE = "ingest.max_tenant_buffer_share";
    public static final String INGEST_WAL_MAX_BYTES = "ingest.wal_max_bytes";
    public static final String INGEST_MAX_BODY_BYTES = "ingest.max_body_bytes";
    public static final String INGEST_THREADS = "ingest.threads";
    public static final String AUTH_KEYS_FILE = "auth.keys_file";
    public static final String RETENTION_DEFAULT = "retention.default";
    /**
     * A mapping section, not a key: {@code retention.tenants.<tenant>: <duration>}, one entry per tenant whose
     * retention differs from {@code retention.default}. Tenants are data, so they cannot be keys of this table.
     */
    public static final String RETENTION_TENANTS = "retention.tenants";

    private final Map<String, ConfigKey> byName;

    private ConfigKeys(List<ConfigKey> keys) {
        Map<String, ConfigKey> m = new LinkedHashMap<>();
        for (ConfigKey k : keys) {
            m.put(k.name(), k);
        }
        this.byName = java.util.Collections.unmodifiableMap(m);
    }

    /** The keys with the defaults of this machine ({@code compaction.scratch} lives under java.io.tmpdir). */
    public static ConfigKeys standard() {
        return withTempDir(System.getProperty("java.io.tmpdir"));
    }

    /**
     * The keys with {@code compaction.scratch} under {@code tempDir}; the docs write it as {@code <java.io.tmpdir>}.
     */
    public static ConfigKeys withTempDir(String tempDir) {
        String scratch = Path.of(tempDir, "ourios-scratch").toString();
        List<ConfigKey> k = new ArrayList<>();
        k.add(key(STORE_URI, "OURIOS_STORE", "--store", "./ourios-data", Kind.STRING, false,
                "Store: a directory, file:///... or s3://bucket/prefix"));
        k.add(key(S3_ENDPOINT, "OURIOS_S3_ENDPOINT", "--s3-endpoint", null, Kind.URL, false,
                "S3-compatible endpoint (implies path-style addressing); unset = AWS"));
        k.add(key(S3_REGION, "OURIOS_S3_REGION", null, "us-east-1", Kind.STRING, false, "S3 signing region"));
        k.add(key(S3_ACCESS_KEY_ID, "OURIOS_S3_ACCESS_KEY_ID", null, null, Kind.STRING, false,
                "Static S3 access key id (with the secret); unset = the AWS default credentials chain"));
        k.add(key(S3_SECRET_ACCESS_KEY, "OURIOS_S3_SECRET_ACCESS_KEY", null, null, Kind.STRING, true,
                "Static S3 secret access key (with the key id); never printed"));
        k.add(key(S3_CONNECT_TIMEOUT, "OURIOS_S3_CONNECT_TIMEOUT", null,
                Units.formatDuration(S3Timeouts.DEFAULT_CONNECT), Kind.DURATION, false,
                "Deadline for connecting to S3"));
        k.add(key(S3_READ_TIMEOUT, "OURIOS_S3_READ_TIMEOUT", null,
                Units.formatDuration(S3Timeouts.DEFAULT_READ), Kind.DURATION, false,
                "Longest wait for the next bytes of an S3 response"));
        k.add(key(S3_ATTEMPT_TIMEOUT, "OURIOS_S3_ATTEMPT_TIMEOUT", null,
                Units.formatDuration(S3Timeouts.DEFAULT_ATTEMPT), Kind.DURATION, false,
                "Deadline of one attempt of an S3 request (at most store.s3.call_timeout)"));
        k.add(key(S3_CALL_TIMEOUT, "OURIOS_S3_CALL_TIMEOUT", null,
                Units.formatDuration(S3Timeouts.DEFAULT_CALL), Kind.DURATION, false,
                "Deadline of one S3 request with all its retries"));
        k.add(key(HTTP_LISTEN, "OURIOS_HTTP", "--http", "127.0.0.1:4319", Kind.LISTEN, false,
                "Address of the HTTP endpoint, host:port (port 0 = any free port)"));
        k.add(key(HTTP_MAX_BODY_BYTES, "OURIOS_HTTP_MAX_BODY_BYTES", null, "64KiB", Kind.SIZE, false,
                "Largest accepted request body; larger ones get 413").withRange(Range.of(1, 64L << 20), "bytes"));
        k.add(key(HTTP_THREADS, "OURIOS_HTTP_THREADS", null, "4", Kind.INT, false,
                "Requests served at once").withRange(Range.of(1, 256), "requests"));
        k.add(key(HTTP_QUEUE, "OURIOS_HTTP_QUEUE", null, "64", Kind.INT, false,
                "Requests waiting for a thread; beyond it 503 with Retry-After")
                .withRange(Range.of(0, 100_000), "requests"));
        k.add(key(HTTP_MAX_ROWS, "OURIOS_HTTP_MAX_ROWS", null, "10000", Kind.INT, false,
                "Rows one /v1/query returns at most (its default limit); a response cut here says truncated")
                .withRange(Range.of(1, 10_000_000), "rows"));
        k.add(key(HTTP_MAX_RESPONSE_BYTES, "OURIOS_HTTP_MAX_RESPONSE_BYTES", null, "16MiB", Kind.SIZE, false,
                "Rows of one /v1/query response stop after this many bytes (truncated, with a cursor)")
                .withRange(Range.atLeast(64 << 10), "bytes"));
        k.add(key(HTTP_MAX_CONCURRENT_QUERIES, "OURIOS_HTTP_MAX_CONCURRENT_QUERIES", null, "2", Kind.INT, false,
                "Queries running at once; beyond it 429 with Retry-After").withRange(Range.of(1, 1024), "queries"));
        k.add(key(HTTP_QUERY_TIMEOUT, "OURIOS_HTTP_QUERY_TIMEOUT", null, "30s", Kind.DURATION, false,
                "Deadline of one query: 504 before the first row, a truncated response after it"));
        k.add(key(HTTP_UI_ENABLED, "OURIOS_HTTP_UI_ENABLED", null, "true", Kind.BOOLEAN, false,
                "The web UI at / on the query port; false = not served (404)"));
        k.add(key(HTTP_TAIL_MAX_CLIENTS, "OURIOS_HTTP_TAIL_MAX_CLIENTS", null, "2", Kind.INT, false,
                "Live tails (GET /v1/tail) open at once, each holding a handler thread (at most http.threads - 1); beyond it 429")
                .withRange(Range.of(0, 1024), "tails"));
        k.add(key(HTTP_TAIL_QUEUE_ROWS, "OURIOS_HTTP_TAIL_QUEUE_ROWS", null, "10000", Kind.INT, false,
                "Rows waiting for one live tail client; beyond it rows are dropped and the client told how many")
                .withRange(Range.of(1, 1_000_000), "rows"));
        k.add(key(HTTP_TAIL_HEARTBEAT, "OURIOS_HTTP_TAIL_HEARTBEAT", null, "10s", Kind.DURATION, false,
                "A live tail without rows for this long gets a heartbeat comment"));
        k.add(key(HTTP_HEADER_TIMEOUT, "OURIOS_HTTP_HEADER_TIMEOUT", null, "10s", Kind.DURATION, false,
                "Both ports: a request's headers must arrive within this (slow clients are disconnected)"));
        k.add(key(HTTP_BODY_TIMEOUT, "OURIOS_HTTP_BODY_TIMEOUT", null, "30s", Kind.DURATION, false,
                "Both ports: a request's body must arrive within this after its headers; else 408"));
        k.add(key(HTTP_IDLE_TIMEOUT, "OURIOS_HTTP_IDLE_TIMEOUT", null, "30s", Kind.DURATION, false,
                "Both ports: a connection with nothing sent or received for this long is closed"));
        k.add(key(HTTP_MAX_CONNECTIONS, "OURIOS_HTTP_MAX_CONNECTIONS", null, "1024", Kind.INT, false,
                "Both ports, each: open connections; further ones wait in the accept backlog")
                .withRange(Range.of(1, 1_000_000), "connections"));
        k.add(key(TLS_CERT, "OURIOS_TLS_CERT", "--tls-cert", null, Kind.PATH, false,
                "Both ports: PEM certificate chain; with tls.key the ports speak HTTPS only"));
        k.add(key(TLS_KEY, "OURIOS_TLS_KEY", "--tls-key", null, Kind.PATH, false,
                "Both ports: PEM private key (unencrypted PKCS#8) of tls.cert"));
        k.add(key(TLS_CLIENT_CA, "OURIOS_TLS_CLIENT_CA", "--tls-client-ca", null, Kind.PATH, false,
                "Both ports: PEM CA certificates; clients must present a certificate they issued (mutual TLS)"));
        k.add(key(AUTH_KEYS_FILE, "OURIOS_AUTH_KEYS_FILE", "--keys-file", null, Kind.PATH, false,
                "API keys file (ourios keys new); unset = no authorization, loopback addresses only"));
        k.add(key(INGEST_ENABLED, "OURIOS_INGEST_ENABLED", null, "true", Kind.BOOLEAN, false,
                "Run the OTLP/HTTP logs receiver (false: no POST /v1/logs)"));
        k.add(key(INGEST_LISTEN, "OURIOS_OTLP_HTTP", "--otlp-http", "127.0.0.1:4318", Kind.LISTEN, false,
                "Address of the OTLP/HTTP logs receiver, host:port (port 0 = any free port)"));
        k.add(key(INGEST_GRPC_LISTEN, "OURIOS_INGEST_GRPC_LISTEN", "--otlp-grpc", "127.0.0.1:4317", Kind.LISTEN,
                false, "Address of the OTLP/gRPC logs receiver, host:port (port 0 = any free port); off = none"));
        k.add(key(INGEST_WAL_DIR, "OURIOS_INGEST_WAL_DIR", "--wal-dir", null, Kind.PATH, false,
                "Write-ahead-log directory (local disk); unset = <store>/../ourios-wal, required for S3"));
        k.add(key(INGEST_FLUSH_BYTES, "OURIOS_INGEST_FLUSH_BYTES", null, "16MiB", Kind.SIZE, false,
                "A WAL segment is flushed to ingest files once it holds this much")
                .withRange(Range.atLeast(1024), "bytes"));
        k.add(key(INGEST_FLUSH_INTERVAL, "OURIOS_INGEST_FLUSH_INTERVAL", null, "2s", Kind.DURATION, false,
                "... or once it is this old: records are queryable within about this long"));
        k.add(key(INGEST_MAX_BUFFER_BYTES, "OURIOS_INGEST_MAX_BUFFER_BYTES", null, "256MiB", Kind.SIZE, false,
                "Heap for requests in flight; beyond it 429").withRange(Range.atLeast(1 << 20), "bytes"));
        k.add(key(INGEST_MAX_TENANT_BUFFER_SHARE, "OURIOS_INGEST_MAX_TENANT_BUFFER_SHARE", null,
                String.valueOf(IngestSettings.DEFAULT_MAX_TENANT_BUFFER_SHARE), Kind.FRACTION, false,
                "Largest fraction of ingest.max_buffer_bytes one tenant's requests hold; beyond it 429 for that tenant"));
        k.add(key(INGEST_WAL_MAX_BYTES, "OURIOS_INGEST_WAL_MAX_BYTES", null, "1GiB", Kind.SIZE, false,
                "WAL bytes not yet flushed; beyond it 503").withRange(Range.atLeast(1 << 20), "bytes"));
        k.add(key(INGEST_MAX_BODY_BYTES, "OURIOS_INGEST_MAX_BODY_BYTES", null, "16MiB", Kind.SIZE, false,
                "Largest request body, compressed or decompressed; larger ones get 413")
                .withRange(Range.of(1024, 64L << 20), "bytes"));
        k.add(key(INGEST_THREADS, "OURIOS_INGEST_THREADS", null, "4", Kind.INT, false,
                "OTLP requests decoded at once").withRange(Range.of(1, 256), "requests"));
        k.add(key(COMPACTION_ENABLED, "OURIOS_COMPACTION_ENABLED", null, "true", Kind.BOOLEAN, false,
                "Run the compaction daemon (false: serve queries only)"));
        k.add(key(COMPACTION_INTERVAL, "OURIOS_COMPACTION_INTERVAL", "--interval", "5m", Kind.DURATION, false,
                "Time between sweeps"));
        k.add(key(GRACE, "OURIOS_COMPACTION_GRACE", "--grace", Units.formatDuration(CompactionOptions.DEFAULT_GRACE),
                Kind.DURATION, false,
                "Sealing margin after the hour ends"));
        k.add(key(MIN_FILES, "OURIOS_COMPACTION_MIN_FILES", "--min-files",
                String.valueOf(CompactionOptions.DEFAULT_MIN_FILES), Kind.INT, false,
                "Candidate if more live files than this").withRange(Range.of(0, 1_000_000), "files"));
        k.add(key(MAX_TAIL_RATIO, "OURIOS_COMPACTION_MAX_TAIL_RATIO", "--max-tail-ratio",
                String.valueOf(CompactionOptions.DEFAULT_MAX_TAIL_RATIO), Kind.FRACTION,
                false, "Late files beside a compacted hour merge among themselves up to this fraction of its bytes"));
        k.add(key(SMALL_FILE_BYTES, "OURIOS_COMPACTION_SMALL_FILE_BYTES", "--small-file-bytes",
                Units.formatSize(CompactionOptions.DEFAULT_SMALL_FILE_BYTES), Kind.SIZE,
                false, "Candidate if any live file is smaller").withRange(Range.atLeast(0), "bytes"));
        k.add(key(MAX_FILE_BYTES, "OURIOS_COMPACTION_MAX_FILE_BYTES", "--max-file-bytes",
                Units.formatSize(CompactionOptions.DEFAULT_MAX_FILE_BYTES), Kind.SIZE, false,
                "Largest compacted file; a larger partition is written as several")
                .withRange(Range.atLeast(CompactionOptions.MIN_MAX_FILE_BYTES), "bytes"));
        k.add(key(ROLLUP, "OURIOS_COMPACTION_ROLLUP", "--rollup", "true", Kind.BOOLEAN, false,
                "Roll a tenant's small sealed hours up into one file per UTC day"));
        k.add(key(SORT_BUDGET, "OURIOS_COMPACTION_SORT_BUDGET", "--sort-budget",
                Units.formatSize(CompactionOptions.DEFAULT_SORT_BUDGET_BYTES), Kind.SIZE, false,
                "Decoded-row budget of the sort before spilling").withRange(Range.atLeast(0), "bytes"));
        k.add(key(FAN_IN, "OURIOS_COMPACTION_FAN_IN", "--fan-in", String.valueOf(CompactionOptions.DEFAULT_FAN_IN),
                Kind.INT, false, "Runs merged at once")
                .withRange(Range.of(0, 1_000_000), "runs"));
        k.add(key(ROW_GROUP_BYTES, "OURIOS_COMPACTED_RG_BYTES", "--row-group-bytes", null, Kind.SIZE, false,
                "Compacted row-group threshold; unset = clamp(input/8, 1MiB, 32MiB)")
                .withRange(Range.atLeast(0), "bytes"));
        k.add(key(CONCURRENCY, "OURIOS_COMPACTION_CONCURRENCY", "--concurrency", "1", Kind.INT, false,
                "Partitions compacted at once").withRange(Range.of(0, 1024), "partitions"));
        k.add(key(SHARE_WORKERS, "OURIOS_COMPACTION_SHARE_WORKERS", "--share-workers", "1", Kind.INT, false,
                "Workers one rewrite of at least four times --max-file-bytes is split between (storage.md 4.14)")
                .withRange(Range.of(0, 1024), "workers"));
        k.add(key(GC_GRACE, "OURIOS_COMPACTION_GC_GRACE", "--gc-grace",
                Units.formatDuration(CompactionOptions.DEFAULT_GC_GRACE), Kind.DURATION, false,
                "How long retired files, orphans and old manifests are kept"));
        k.add(key(SCRATCH, "OURIOS_COMPACTION_SCRATCH", "--scratch", scratch, Kind.PATH, false,
                "Scratch directory for spill runs"));
        k.add(key(SCRATCH_DEBRIS_AGE, "OURIOS_COMPACTION_SCRATCH_DEBRIS_AGE", "--scratch-debris-age",
                Units.formatDuration(CompactionOptions.DEFAULT_SCRATCH_DEBRIS_AGE),
                Kind.DURATION, false, "Scratch of a compaction process that is gone is deleted once this old"));
        k.add(key(MAX_READ_RATE, "OURIOS_COMPACTION_MAX_READ_RATE", "--max-read-rate", "0", Kind.SIZE, false,
                "Bytes per second all compactions together may read from the store; 0 = unthrottled")
                .withRange(Range.atLeast(0), "bytes per second"));
        k.add(key(MAX_WRITE_RATE, "OURIOS_COMPACTION_MAX_WRITE_RATE", "--max-write-rate", "0", Kind.SIZE, false,
                "Bytes per second all compactions together may write to the store; 0 = unthrottled")
                .withRange(Range.atLeast(0), "bytes per second"));
        k.add(key(ICEBERG_ENABLED, "OURIOS_ICEBERG_ENABLED", null, "false", Kind.BOOLEAN, false,
                "Keep the store's Iceberg view (iceberg/logs) in step with every change serve makes; needs "
                + "compaction.enabled"));
        k.add(key(ICEBERG_SYNC_INTERVAL, "OURIOS_ICEBERG_SYNC_INTERVAL", null, "10s", Kind.DURATION, false,
                "Least time between two syncs of the Iceberg view: a change reaches the view within it plus one sync"));
        k.add(key(ICEBERG_TIME_TYPE, "OURIOS_ICEBERG_TIME_TYPE", null, "timestamp_ns", Kind.STRING, false,
                "Type of the Iceberg view's time columns when serve first makes it: timestamp_ns (Iceberg v3; Iceberg's "
                + "Java library, engines with nanosecond timestamps) or long (nanoseconds since the epoch; Spark)"));
        k.add(key(ICEBERG_RECONCILE_INTERVAL, "OURIOS_ICEBERG_RECONCILE_INTERVAL", null, "1h", Kind.DURATION, false,
                "How often a sync of the Iceberg view reads every partition, not only the ones serve changed"));
        k.add(key(DRAIN_TIMEOUT, "OURIOS_DRAIN_TIMEOUT", null, "10m", Kind.DURATION, false,
                "On SIGTERM, how long running compactions may take to finish before the process exits anyway"));
        k.add(key(RETENTION_DEFAULT, "OURIOS_RETENTION", "--retention", null, Kind.DURATION, false,
                "How long every tenant's logs are kept (e.g. 30d); unset = forever. Per tenant: retention.tenants"));
        return new ConfigKeys(k);
    }

    private static ConfigKey key(String name, String env, String flag, String def, Kind kind, boolean secret,
            String description) {
        return new ConfigKey(name, env, Optional.ofNullable(flag), Optional.ofNullable(def), kind, Range.ANY,
                kind == Kind.SIZE ? "bytes" : "", secret, description);
    }

    public List<ConfigKey> all() {
        return List.copyOf(byName.values());
    }

    public Optional<ConfigKey> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The key a flag of {@code ourios serve} sets, e.g. {@code compaction.grace} for {@code --grace}. */
    public Optional<ConfigKey> findByFlag(String flag) {
        return byName.values().stream().filter(k -> k.flag().filter(flag::equals).isPresent()).findFirst();
    }

    public ConfigKey get(String name) {
        ConfigKey k = byName.get(name);
        if (k == null) {
            throw new IllegalArgumentException("BUG: no configuration key '" + name + "'");
        }
        return k;
    }

    /** True if {@code path} is a mapping of free names to values ({@link #RETENTION_TENANTS}). */
    public boolean isMapSection(String path) {
        return RETENTION_TENANTS.equals(path);
    }

    /** True if {@code path} is a section some key sits in ({@code store}, {@code store.s3}, ...). */
    public boolean isSection(String path) {
        return byName.keySet().stream().anyMatch(n -> n.startsWith(path + "."));
    }
}
