package dev.ourios.server.status;

import dev.ourios.core.Retention;
import dev.ourios.http.Exchange;
import dev.ourios.http.HttpRefusal;
import dev.ourios.http.Route;
import dev.ourios.ingest.Ingester;
import dev.ourios.ingest.quarantine.SegmentQuarantine;
import dev.ourios.server.iceberg.IcebergSyncLoop;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code GET /v1/status} (admin scope): the figures of the store page as one JSON document (cli.md, "GET
 * /v1/status"). Bounded work per request: the store's figures are {@link StoreFigures}' cached walk, the rest are
 * counters and states the service holds.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class StatusEndpoint {
    /** The ingest rate is measured over at least this long between two reads. */
    static final Duration MIN_RATE_WINDOW = Duration.ofSeconds(1);

    /** What the sweep loop runs with. */
    public record Sweeps(boolean enabled, Duration interval, Optional<SweepHistory> history) {
    }

    private final StoreFigures store;
    private final Sweeps sweeps;
    private final Optional<Ingester> ingest;
    private final Optional<IcebergSyncLoop> iceberg;
    private final Retention retention;
    private final Clock clock;
    private Instant rateAt;
    private long rateAccepted;
    private double rate;

    public StatusEndpoint(StoreFigures store, Sweeps sweeps, Optional<Ingester> ingest,
            Optional<IcebergSyncLoop> iceberg, Retention retention, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.sweeps = Objects.requireNonNull(sweeps, "sweeps");
        this.ingest = Objects.requireNonNull(ingest, "ingest");
        this.iceberg = Objects.requireNonNull(iceberg, "iceberg");
        this.retention = Objects.requireNonNull(retention, "retention");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Route route() {
        return Route.gated("GET", "/v1/status", 0, this::handle);
    }

    private void handle(Exchange ex) throws IOException {
        if (!ex.queryParameters().isEmpty()) {
            String p = ex.queryParameters().keySet().iterator().next();
            throw new HttpRefusal(400, p, p + ": unknown query parameter (GET /v1/status takes none)");
        }
        ex.sendJson(200, document());
    }

    /** The status document. */
    Map<String, Object> document() throws IOException {
        Instant now = clock.instant();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("generated_at", now.toString());
        StoreFigures.Snapshot s = store.current();
        Map<String, Object> st = new LinkedHashMap<>();
        st.put("computed_at", s.takenAt().toString());
        st.put("walk_seconds", s.walkSeconds());
        st.put("max_age_seconds", StoreFigures.MAX_AGE.toSeconds());
        st.put("small_file_bytes", StoreFigures.SMALL_FILE_BYTES);
        List<Map<String, Object>> tenants = new ArrayList<>();
        for (StoreFigures.Tenant t : s.tenants()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("tenant", t.tenant());
            o.put("hours", t.hours());
            o.put("live_files", t.liveFiles());
            o.put("bytes", t.bytes());
            o.put("small_files", t.smallFiles());
            o.put("small_file_share", t.smallFileShare());
            tenants.add(o);
        }
        st.put("tenants", tenants);
        out.put("store", st);
        Map<String, Object> comp = new LinkedHashMap<>();
        comp.put("enabled", sweeps.enabled());
        comp.put("interval_seconds", sweeps.interval().toSeconds());
        comp.put("backlog_partitions", s.waiting());
        comp.put("backlog_named", s.waitingNamed());
        List<Map<String, Object>> last = new ArrayList<>();
        for (SweepHistory.Sweep w : sweeps.history().map(SweepHistory::last).orElse(List.of())) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("sweep", w.sweep());
            o.put("started", w.started().toString());
            o.put("finished", w.finished().toString());
            o.put("duration_seconds", w.seconds());
            o.put("result", w.result());
            o.put("committed", w.committed());
            o.put("noop", w.noop());
            o.put("errors", w.errors());
            o.put("gc_deleted", w.gcDeleted());
            o.put("gc_bytes", w.gcBytes());
            last.add(o);
        }
        comp.put("last_sweeps", last);
        out.put("compaction", comp);
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("enabled", ingest.isPresent());
        if (ingest.isPresent()) {
            Ingester i = ingest.get();
            long accepted = i.metrics().acceptedTotal();
            in.put("records_per_second", rate(now, accepted));
            in.put("records_accepted", accepted);
            in.put("records_rejected", i.metrics().rejectedTotal());
            in.put("wal_bytes", i.walPendingBytes());
            // Segments moved aside whole because their flush cannot succeed: acknowledged, kept, not queryable
            // until an operator replays them ('ourios wal quarantine').
            try {
                List<SegmentQuarantine.Entry> held = i.quarantine().list();
                in.put("quarantined_segments", held.size());
                in.put("quarantined_bytes", held.stream().mapToLong(SegmentQuarantine.Entry::bytes).sum());
            } catch (IOException e) {
                in.put("quarantined_segments", null);
                in.put("quarantined_bytes", null);
            }
        }
        out.put("ingest", in);
        Map<String, Object> ice = new LinkedHashMap<>();
        ice.put("enabled", iceberg.isPresent());
        iceberg.map(IcebergSyncLoop::state).ifPresent(v -> {
            ice.put("last_sync", v.lastSync().map(Instant::toString).orElse(null));
            ice.put("version", v.version());
            ice.put("live_files", v.liveFiles());
            ice.put("last_error", v.lastError().orElse(null));
            ice.put("pending", v.pending());
        });
        out.put("iceberg", ice);
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("default_seconds", retention.defaultRetention().map(Duration::toSeconds).orElse(null));
        Map<String, Object> per = new TreeMap<>();
        retention.tenants().forEach((t, d) -> per.put(t, d.toSeconds()));
        ret.put("tenants_seconds", per);
        out.put("retention", ret);
        return out;
    }

    /** Records per second accepted since the previous read at least {@link #MIN_RATE_WINDOW} ago. */
    private synchronized double rate(Instant now, long accepted) {
        if (rateAt == null) {
            rateAt = now;
            rateAccepted = accepted;
            return 0;
        }
        Duration window = Duration.between(rateAt, now);
        if (window.compareTo(MIN_RATE_WINDOW) >= 0) {
            rate = (accepted - rateAccepted) / (window.toNanos() / 1e9);
            rateAt = now;
            rateAccepted = accepted;
        }
        return rate;
    }
}
