package dev.ourios.server.query;

import dev.ourios.server.events.EventLog;
import dev.ourios.compaction.Deletion;
import dev.ourios.compaction.DeletionRequest;
import dev.ourios.compaction.DeletionResult;
import dev.ourios.http.Exchange;
import dev.ourios.http.HttpRefusal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * {@code POST /v1/delete} (admin scope): the deletion of {@code ourios delete} for the request's authorized tenant,
 * its filters parsed by {@link QueryRequest#parseDelete}, answered with the objects {@code ourios delete --json}
 * prints. One deletion runs at a time per server: a rewrite holds a sort budget and scratch space, and two
 * deletions of one tenant would only conflict on the same partitions, so a second request is refused with 429 and
 * {@code Retry-After} rather than queued behind work of unknown length.
 *
 * <p>The request runs synchronously until every partition is done, however long that is. A client that disconnects
 * does not stop it: each partition commits or not as a whole, and the outcome is logged
 * ({@code ourios.delete.served}) before the response is written.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class DeleteEndpoint {
    /** Seconds a client refused because a deletion runs is asked to wait. */
    static final int BUSY_RETRY_AFTER = 10;

    private final Deletion deletion;
    private final StoreProbe probe;
    private final EventLog events;
    private final Semaphore running = new Semaphore(1);

    public DeleteEndpoint(Deletion deletion, StoreProbe probe, EventLog events) {
        this.deletion = deletion;
        this.probe = probe;
        this.events = events;
    }

    /** Parses, runs and answers one request; refusals are thrown as {@link HttpRefusal}, with nothing changed. */
    void handle(Exchange ex) throws IOException {
        String tenant = ex.tenant();
        QueryRequest.DeleteBody body = QueryRequest.parseDelete(tenant, ex.body());
        DeletionRequest request;
        try {
            request = new DeletionRequest(body.filter());
        } catch (IllegalArgumentException e) {
            throw BadRequest.field("to", e.getMessage());
        }
        probe.unreadable().ifPresent(why -> {
            throw new HttpRefusal(503, null, "store unavailable: " + why, 5);
        });
        if (!running.tryAcquire()) {
            throw new HttpRefusal(429, null, "another deletion is running on this server; retry when it is done",
                    BUSY_RETRY_AFTER);
        }
        List<DeletionResult> results;
        try {
            results = deletion.run(request, body.dryRun(), r -> { });
        } finally {
            running.release();
        }
        Summary s = Summary.of(results);
        Map<String, Object> a = HttpApi.attributes(ex, 200);
        a.put("ourios.tenant", tenant);
        a.put("ourios.delete.dry_run", body.dryRun());
        a.put("ourios.delete.partitions", results.size());
        a.put("ourios.delete.partitions.rewritten", s.rewritten());
        a.put("ourios.delete.partitions.failed", s.errors());
        a.put(body.dryRun() ? "ourios.delete.rows_matching" : "ourios.delete.rows_removed", s.matching());
        a.put("ourios.delete.filter", request.toJson());
        events.info("ourios.delete.served", (body.dryRun() ? "delete dry run served: " + s.matching()
                + " rows match" : "delete served: " + s.matching() + " rows removed") + " in " + s.affected()
                + " of " + results.size() + " partitions", a);
        ex.sendJson(200, response(request, body.dryRun(), results, s));
    }

    /** {@code {"dry_run","filter","partitions":[…],"affected","rewritten","rows_removed"|"rows_matching","errors"}}. */
    private static Map<String, Object> response(DeletionRequest request, boolean dryRun,
            List<DeletionResult> results, Summary s) {
        List<Map<String, Object>> partitions = new ArrayList<>();
        for (DeletionResult r : results) {
            partitions.add(DeletionJson.of(r));
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("dry_run", dryRun);
        o.put("filter", request.toMap());
        o.put("partitions", partitions);
        o.put("affected", s.affected());
        o.put("rewritten", s.rewritten());
        o.put(dryRun ? "rows_matching" : "rows_removed", s.matching());
        o.put("errors", s.errors());
        return o;
    }

    /** The totals of a run, as the summary line of {@code ourios delete --json} has them. */
    record Summary(long matching, long affected, long rewritten, long errors) {
        static Summary of(List<DeletionResult> results) {
            return new Summary(results.stream().mapToLong(DeletionResult::rowsRemoved).sum(),
                    results.stream().filter(r -> r.rowsRemoved() > 0).count(),
                    results.stream().filter(r -> r.status() == DeletionResult.Status.COMMITTED).count(),
                    results.stream().filter(r -> r.status() == DeletionResult.Status.ERROR).count());
        }
    }
}
