package dev.ourios.server;

import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.DeletionSettings;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.http.AuthorizingGate;
import dev.ourios.http.RequestGate;
import dev.ourios.iceberg.IcebergView;
import dev.ourios.iceberg.IcebergWiring;
import dev.ourios.iceberg.PendingPartitions;
import dev.ourios.ingest.IngestMetrics;
import dev.ourios.ingest.IngestSettings;
import dev.ourios.ingest.Ingester;
import dev.ourios.server.tail.TailHub;
import dev.ourios.query.ReadSide;
import dev.ourios.server.auth.ListenGuard;
import dev.ourios.server.auth.ServeAuth;
import dev.ourios.server.events.EventLog;
import dev.ourios.server.events.JsonStderr;
import dev.ourios.server.iceberg.IcebergSettings;
import dev.ourios.server.iceberg.IcebergSyncLoop;
import dev.ourios.server.lifecycle.Shutdown;
import dev.ourios.server.otlp.OtlpHttpReceiver;
import dev.ourios.server.otlp.OtlpSettings;
import dev.ourios.server.otlp.grpc.OtlpGrpcReceiver;
import dev.ourios.server.otlp.grpc.OtlpGrpcSettings;
import dev.ourios.server.query.DeleteEndpoint;
import dev.ourios.server.query.HttpApi;
import dev.ourios.server.query.StoreProbe;
import dev.ourios.server.sweep.SweepEvents;
import dev.ourios.server.sweep.SweepLoop;
import dev.ourios.server.status.StatusEndpoint;
import dev.ourios.server.status.StoreFigures;
import dev.ourios.server.status.SweepHistory;
import dev.ourios.server.status.TenantsEndpoint;
import dev.ourios.server.ui.UiRoutes;
import dev.ourios.http.Route;
import dev.ourios.compaction.plan.CompactionPolicy;
import java.util.Optional;
import dev.ourios.server.telemetry.Telemetry;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.LiveSetChanges;
import dev.ourios.table.PartitionFilter;
import dev.ourios.table.TableLayout;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The service of {@code ourios serve}: the compaction daemon, the query API and the OTLP logs receivers (HTTP and gRPC) in one
 * long-lived process, on one store. Logs are JSON lines on stderr. SIGTERM drains: readiness turns 503, no new
 * partition starts, running ones finish, accepted requests are answered, the WAL is flushed, the listeners stop,
 * telemetry is flushed, and the process exits 0.
 */
public final class Server {
    /** How long accepted HTTP requests may take to finish once the sweeps have drained. */
    static final Duration HTTP_DRAIN = Duration.ofSeconds(10);

    private final ServerSettings settings;
    private final Clock clock = Clock.systemUTC();
    private final EventLog events = new EventLog(System.err, clock);

    private Server(ServerSettings settings) {
        this.settings = settings;
    }

    /**
     * Runs the service until a stop is requested (SIGTERM, SIGINT) and everything has drained.
     *
     * @param store the store, already checked to exist; the service owns it from here and closes it
     * @throws StartupException a setting the service cannot start with (nothing is left listening)
     */
    public static void run(ServerSettings settings, ObjectStore store) throws Exception {
        run(settings, store, () -> { });
    }

    /**
     * As above; {@code prepareStore} runs once every setting is checked and before anything listens or is written
     * (it creates a new store and writes its marker), so a refused start leaves nothing behind.
     */
    public static void run(ServerSettings settings, ObjectStore store, Runnable prepareStore) throws Exception {
        new Server(settings).serve(store, prepareStore);
    }

    private void serve(ObjectStore store, Runnable prepareStore) throws Exception {
        CompactionOptions compaction = settings.compaction().options();
        IcebergSettings iceberg = settings.iceberg();
        // Opened first, closed last: the SIGTERM hook halts with 0 only after everything below is closed/flushed.
        try (Shutdown drain = Shutdown.onSignal(settings.drainTimeout(),
                        msg -> events.info("ourios.serve.draining", msg, Map.of()));
                ObjectStore s = store;
                Telemetry telemetry = Telemetry.open(settings.telemetry())) {
            // Before anything listens: the address rule, the keys file and its SIGHUP reload; auth.authorizer()
            // decides requests (API key, scope, tenant).
            ServeAuth auth = ServeAuth.start(settings.auth(), listeners(), telemetry.meterProvider(), clock,
                    msg -> events.warn("ourios.serve.insecure_no_auth", msg, Map.of()),
                    msg -> events.info("ourios.auth.keys.reloaded", msg, Map.of()));
            prepareStore.run();
            // The read side (queries, files, status, tenants) lists sealed partitions again and again: it keeps
            // the listing of each local directory whose entries have not changed. Writers, compaction and GC keep
            // the store itself, whose listings are always fresh.
            ReadSide reads = ReadSide.over(s);
            TableLayout layout = reads.layout();
            // Every /v1/* request of both ports passes this one gate before its body is read: where an
            // authorizer checks the request's headers and answers 400/401/403.
            RequestGate gate = new AuthorizingGate(auth.authorizer());
            // Every component below that changes a partition's live set reports it here, for the Iceberg view.
            PendingPartitions changed = new PendingPartitions(IcebergSyncLoop.MAX_PENDING_PARTITIONS);
            LiveSetChanges changes = iceberg.enabled() ? changed : LiveSetChanges.NONE;
            // Live tails follow the ingester's flushes; they end when the stop begins, so the drain never waits on one.
            TailHub tails = new TailHub(settings.http().tail());
            drain.whenStopping(tails::close);
            // The receiver's ingester first: opening it replays the WAL, so what was acknowledged before a crash is
            // flushed; readiness then also reports whether it can take records.
            Ingester ingester = settings.otlp().isPresent()
                    ? openIngester(settings.otlp().get(), s, telemetry, compaction, changes, tails) : null;
            StoreProbe probe = new StoreProbe(s, drain::stopRequested,
                    ingester == null ? Optional::empty : ingester::notReady);
            // POST /v1/delete rewrites partitions with the compaction's options (scratch, sort budget, GC grace).
            DeleteEndpoint deletes = new DeleteEndpoint(CompactionWiring.deletion(DeletionSettings.of(s, compaction)
                    .withClock(clock).withLiveSetChanges(changes)), probe, events);
            HttpApi api = new HttpApi(settings.http(),
                    reads.queryEngine(telemetry.meterProvider()), reads.liveFiles(), probe, events, gate, deletes, tails);
            OtlpHttpReceiver receiver = ingester == null ? null : new OtlpHttpReceiver(ingester,
                    settings.http().listener(), gate, settings.otlp().get().listenSetting());
            InetSocketAddress otlp = receiver == null ? null : receiver.start();
            Optional<OtlpGrpcSettings> grpcSettings = settings.otlp().flatMap(OtlpSettings::grpc);
            OtlpGrpcReceiver grpc = ingester == null || grpcSettings.isEmpty() ? null
                    : new OtlpGrpcReceiver(ingester, grpcSettings.get(), settings.http().listener(),
                            auth.authorizer());
            InetSocketAddress grpcBound = null;
            try {
                grpcBound = grpc == null ? null : grpc.start();
            } catch (RuntimeException e) {
                receiver.stop(Duration.ZERO);
                throw e;
            }
            if (ingester != null) {
                drain.whenStopping(ingester::stopAccepting);
            }
            // One view for both: GC keeps what its snapshots reference, and the sync moves it on.
            IcebergView view = IcebergWiring.view(s, settings.storeUri());
            IcebergSyncLoop viewSync = !iceberg.enabled() ? null
                    : new IcebergSyncLoop(IcebergWiring.sync(s, view, clock, iceberg.form()), changed, events,
                            clock, iceberg.syncInterval(), iceberg.reconcileInterval());
            SweepHistory sweeps = new SweepHistory(new SweepEvents(events), clock);
            List<Route> more = new ArrayList<>();
            more.add(new StatusEndpoint(new StoreFigures(layout, reads.liveFiles(),
                    new CompactionPolicy(compaction), clock),
                    new StatusEndpoint.Sweeps(settings.compaction().enabled(), settings.compaction().interval(),
                            Optional.of(sweeps)),
                    Optional.ofNullable(ingester), Optional.ofNullable(viewSync), compaction.retention(), clock)
                    .route());
            more.add(new TenantsEndpoint(auth.authorizer(), layout).route());
            if (settings.http().uiEnabled()) {
                more.addAll(UiRoutes.load().routes());
            }
            InetSocketAddress bound = api.start(more);
            JsonStderr.install(events);
            String scheme = settings.http().listener().scheme();
            events.info("ourios.serve.started", "serving " + scheme + "://" + bound.getHostString() + ":"
                    + bound.getPort() + (otlp == null ? "" : ", OTLP/HTTP logs on " + scheme + "://"
                    + otlp.getHostString() + ":" + otlp.getPort())
                    + (grpcBound == null ? "" : ", OTLP/gRPC logs on " + grpcBound.getHostString() + ":"
                    + grpcBound.getPort())
                    + " on " + settings.storeUri(), started(bound, otlp, grpcBound));
            if (viewSync != null) {
                viewSync.start();
            }
            try {
                if (settings.compaction().enabled()) {
                    SweepRunner runner = CompactionWiring.sweepRunner(SweepSettings.of(s, compaction)
                            .withPlanClock(clock).withWallClock(clock).withMeters(telemetry.meterProvider())
                            .withFileRetention(IcebergWiring.retention(view, clock)).withLiveSetChanges(changes));
                    new SweepLoop(runner, PartitionFilter.all(), settings.compaction().interval(), drain)
                            .run(sweeps);
                } else {
                    while (!drain.stopRequested()) {
                        drain.sleep(Duration.ofHours(1));
                    }
                }
            } finally {
                if (receiver != null) {
                    // Stop accepting, answer what was accepted, then flush every record the WAL holds.
                    if (grpc != null) {
                        grpc.stop(HTTP_DRAIN);
                    }
                    receiver.stop(HTTP_DRAIN);
                    boolean flushed = ingester.drain(settings.drainTimeout());
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
    }

    /** Every address the service binds, with the setting that names it, for the loopback rule. */
    private List<ListenGuard.Listener> listeners() {
        List<ListenGuard.Listener> out = new ArrayList<>();
        out.add(new ListenGuard.Listener(settings.http().listenSetting(), settings.http().listener().listen()));
        settings.otlp().ifPresent(o -> out.add(new ListenGuard.Listener(o.listenSetting(), o.ingest().listen())));
        settings.otlp().flatMap(OtlpSettings::grpc)
                .ifPresent(g -> out.add(new ListenGuard.Listener(g.listenSetting(), g.listen())));
        return out;
    }

    private Ingester openIngester(OtlpSettings otlp, ObjectStore store, Telemetry telemetry,
            CompactionOptions compaction, LiveSetChanges changes, TailHub tails) {
        IngestSettings ingest = otlp.ingest();
        try {
            return Ingester.open(ingest, store, new IngestMetrics(telemetry.meterProvider()), compaction.retention(),
                    clock, changes, tails);
        } catch (IOException e) {
            throw new StartupException(otlp.walDirSetting() + ": " + e.getMessage(), e);
        }
    }

    private Map<String, Object> started(InetSocketAddress bound, InetSocketAddress otlp, InetSocketAddress grpc) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("server.address", bound.getHostString());
        a.put("server.port", bound.getPort());
        a.put("url.scheme", settings.http().listener().scheme());
        if (otlp != null) {
            a.put("ourios.ingest.port", otlp.getPort());
            a.put("ourios.ingest.wal_dir", settings.otlp().get().ingest().walDir().toString());
        }
        if (grpc != null) {
            a.put("ourios.ingest.grpc_port", grpc.getPort());
        }
        a.put("ourios.store", settings.storeUri());
        a.put("ourios.compaction.enabled", settings.compaction().enabled());
        a.put("ourios.compaction.interval", settings.compaction().interval().toString());
        return a;
    }
}
