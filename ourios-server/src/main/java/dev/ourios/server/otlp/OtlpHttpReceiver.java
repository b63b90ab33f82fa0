package dev.ourios.server.otlp;

import dev.ourios.http.ErrorBody;
import dev.ourios.http.Exchange;
import dev.ourios.http.FailureLog;
import dev.ourios.http.HttpRefusal;
import dev.ourios.http.AuthorizingGate;
import dev.ourios.http.RequestGate;
import dev.ourios.http.Route;
import dev.ourios.http.ServerOptions;
import dev.ourios.ingest.Ingester;
import dev.ourios.otlp.OtlpCodec;
import dev.ourios.otlp.UndecodableException;
import dev.ourios.server.http.HttpListener;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OTLP/HTTP logs receiver: {@code POST /v1/logs} with {@code application/x-protobuf} or {@code application/json}
 * bodies, optionally gzip, answered with an {@code ExportLogsServiceResponse} in the request's encoding once the
 * accepted records are durable. The tenant is the one the gate decided (the key's, or the
 * {@code X-Ourios-Tenant} header's: percent-encoded UTF-8, absent meaning {@code default}). Runs on an {@link HttpListener}, the query API's listener set-up (header, body and idle timeouts, TLS, request ids).
 *
 * <p>Limits: a body above {@code ingest.max_body_bytes} (declared, read, or decompressed) is 413; a request whose
 * body does not fit the shared heap budget is 429 before it is read, and one the WAL cannot take (too much
 * unflushed, failed, shutting down) 503, both with {@code Retry-After}. Errors are a {@code google.rpc.Status} in
 * the request's encoding (JSON when the request's encoding is unknown).
 */
public final class OtlpHttpReceiver {
    static final String PROTOBUF = "application/x-protobuf";
    static final String JSON = "application/json";
    /** Thread-name prefix and log label of the listener. */
    static final String NAME = "ourios-otlp-http";
    private static final Logger LOG = LoggerFactory.getLogger(OtlpHttpReceiver.class);

    private final Ingester ingester;
    private final ServerOptions options;
    private final RequestGate gate;
    private final String listenSetting;
    private final OtlpCodec codec = new OtlpCodec();
    private final LogsExport logs;
    private HttpListener server;

    /** A plain-HTTP receiver with the default timeouts, on the ingester's listen address and thread count. */
    public OtlpHttpReceiver(Ingester ingester) {
        this(ingester, ServerOptions.defaults(NAME, ingester.settings().listen(), ingester.settings().threads(),
                ingester.settings().threads() * 4), AuthorizingGate.open(), NAME);
    }

    /**
     * @param options       timeouts, limits and TLS of the listener; its address and thread count are replaced by
     *                      the ingester's listen address and thread count
     * @param gate          checked before each request's body is read (authorization)
     * @param listenSetting how messages name the listen address's setting
     */
    public OtlpHttpReceiver(Ingester ingester, ServerOptions options, RequestGate gate, String listenSetting) {
        this.ingester = ingester;
        this.logs = new LogsExport(ingester);
        int threads = ingester.settings().threads();
        this.options = options.withName(NAME).withListen(ingester.settings().listen(), threads, threads * 4);
        this.gate = gate;
        this.listenSetting = listenSetting;
    }

    /**
     * Binds and starts; returns the bound address (the real port when 0 was configured).
     *
     * @throws dev.ourios.server.StartupException the address or the TLS files cannot be used
     */
    public InetSocketAddress start() {
        Route logs = new Route("POST", "/v1/logs", ingester.settings().maxBodyBytes(), true, this::admit,
                this::export);
        server = HttpListener.start(listenSetting, options, List.of(logs), gate, OtlpHttpReceiver::error,
                new FailureLog() {
                    @Override
                    public void failed(String requestId, String method, String path, Throwable error) {
                        LOG.error("OTLP request {} {} {} failed", requestId, method, path, error);
                    }

                    @Override
                    public void completed(String method, String path, int status, long nanos) {
                        ingester.metrics().request(status, nanos);
                    }
                });
        return server.address();
    }

    /** Stops accepting and waits (at most {@code max}) for the requests already accepted to be answered. */
    public void stop(Duration max) throws InterruptedException {
        if (server != null) {
            server.stop(max);
        }
    }

    /**
     * Before the body is read (and after the gate decided the tenant): media type, encoding and tenant are checked and
     * the WAL asked whether it takes more; the body is then charged to the tenant's part of the heap budget as it
     * arrives ({@link TenantBodyMeter}).
     */
    private Runnable admit(Exchange ex, long declared) {
        String type = mediaType(ex.header("Content-Type"));
        if (!type.equals(PROTOBUF) && !type.equals(JSON)) {
            throw new HttpRefusal(415, "Content-Type", "Content-Type must be " + PROTOBUF + " or " + JSON
                    + ", got '" + type + "'");
        }
        String encoding = ex.header("Content-Encoding");
        if (encoding != null && !encoding.trim().equalsIgnoreCase("gzip")
                && !encoding.trim().equalsIgnoreCase("identity")) {
            throw new HttpRefusal(415, "Content-Encoding", "Content-Encoding '" + encoding
                    + "' is not supported (gzip or none)");
        }
        try {
            logs.admit(ex.tenant());
        } catch (Refusal r) {
            throw new HttpRefusal(r.status, null, r.getMessage(), r.retryAfterSeconds);
        }
        // Nothing is reserved for an announced length: the body is charged to its tenant as it arrives.
        return new TenantBodyMeter(ingester.budget(), ex.tenant());
    }

    private void export(Exchange ex) throws IOException, InterruptedException {
        boolean json = mediaType(ex.header("Content-Type")).equals(JSON);
        String tenant = ex.tenant();
        String encoding = ex.header("Content-Encoding");
        boolean gzip = encoding != null && encoding.trim().equalsIgnoreCase("gzip");
        BodyReader reader = new BodyReader(ingester.budget(), tenant, ingester.settings().maxBodyBytes());
        byte[] answer; // sent once the request's charge is returned: a client holding its answer finds it returned
        try {
            byte[] body = ex.body();
            ingester.metrics().received(body.length);
            if (gzip) {
                body = reader.gunzip(body);
            }
            // The decoded request and records take roughly twice the encoded size on the heap.
            reader.charge(2L * body.length);
            ExportLogsServiceRequest request;
            try {
                request = json ? codec.parseJson(body) : codec.parseProtobuf(body);
            } catch (UndecodableException e) {
                throw new HttpRefusal(400, null, e.getMessage());
            }
            body = null;
            ExportLogsServiceResponse r = logs.export(tenant, request);
            answer = json ? codec.responseJson(r) : codec.responseProtobuf(r);
        } catch (Refusal r) {
            throw new HttpRefusal(r.status, null, r.getMessage(), r.retryAfterSeconds);
        } finally {
            ingester.budget().release(tenant, reader.charged());
        }
        ex.send(200, json ? JSON : PROTOBUF, answer);
    }

    /** An error as a {@code google.rpc.Status}: protobuf for a protobuf request, JSON otherwise. */
    private static ErrorBody.Rendered error(int status, String field, String message, String requestId,
            String requestContentType) {
        int code = RpcStatus.codeFor(status);
        String msg = message == null ? "" : message;
        return mediaType(requestContentType).equals(PROTOBUF)
                ? new ErrorBody.Rendered(PROTOBUF, RpcStatus.protobuf(code, msg))
                : new ErrorBody.Rendered(JSON, RpcStatus.json(code, msg));
    }

    private static String mediaType(String contentType) {
        if (contentType == null) {
            return "";
        }
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    }
}
