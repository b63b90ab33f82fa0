package dev.ourios.server.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.core.LogRecord;
import dev.ourios.http.Exchange;
import dev.ourios.query.Query;
import dev.ourios.server.tail.TailHub;
import dev.ourios.server.tail.TailSubscription;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * {@code GET /v1/tail?q=…}: the tenant's rows matching the query as flushes land them, as server-sent events
 * ({@code text/event-stream}): one {@code data:} line of a row's JSON (the objects of {@code /v1/query}) per event,
 * an {@code event: dropped} with {@code {"dropped":N}} when the client's queue overflowed, a {@code : heartbeat}
 * comment after {@code http.tail_heartbeat} without rows, and {@code event: end} when the server stops. The stream
 * opens with a {@code : tailing} comment once the client is subscribed.
 */
final class TailEndpoint {
    static final Set<String> PARAMS = Set.of("q");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] OPEN = ": tailing\n\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] HEARTBEAT = ": heartbeat\n\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] END = "event: end\ndata: {\"reason\":\"the server is stopping\"}\n\n"
            .getBytes(StandardCharsets.UTF_8);

    private final TailHub hub;

    TailEndpoint(TailHub hub) {
        this.hub = hub;
    }

    /** Streams until the client goes away or the server stops; returns the rows sent. */
    long tail(Exchange ex) throws Exception {
        SearchParams p = SearchParams.of(ex.queryParameters(), PARAMS);
        Query q = p.query(ex.tenant());
        long sent = 0;
        try (TailSubscription sub = hub.subscribe(ex.tenant(), q.rowPredicate())) {
            ex.responseHeader("Cache-Control", "no-store");
            OutputStream out = ex.stream(200, "text/event-stream; charset=utf-8");
            out.write(OPEN);
            out.flush();
            while (true) {
                TailSubscription.Batch b = sub.take(hub.settings().heartbeat());
                if (b.ended()) {
                    out.write(END);
                    out.flush();
                    return sent;
                }
                if (b.dropped() > 0) {
                    out.write(("event: dropped\ndata: {\"dropped\":" + b.dropped() + "}\n\n")
                            .getBytes(StandardCharsets.UTF_8));
                }
                for (LogRecord r : b.rows()) {
                    out.write(event(r));
                    sent++;
                }
                if (b.rows().isEmpty() && b.dropped() == 0) {
                    out.write(HEARTBEAT);
                }
                out.flush(); // a client gone fails here: the subscription closes with the request
            }
        } catch (IOException e) {
            return sent; // the client went away
        }
    }

    private static byte[] event(LogRecord r) throws IOException {
        byte[] json = JSON.writeValueAsBytes(RecordJson.of(r)); // JSON has no raw newline: one data line
        byte[] out = new byte[6 + json.length + 2];
        System.arraycopy("data: ".getBytes(StandardCharsets.US_ASCII), 0, out, 0, 6);
        System.arraycopy(json, 0, out, 6, json.length);
        out[out.length - 2] = '\n';
        out[out.length - 1] = '\n';
        return out;
    }
}
