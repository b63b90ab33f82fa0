package dev.ourios.ingest.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ourios.core.TenantCodec;
import dev.ourios.ingest.IngestResult;
import dev.ourios.ingest.Ingester;
import dev.ourios.ingest.otlp.OtlpCodec;
import dev.ourios.ingest.otlp.UndecodableException;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OTLP/HTTP logs receiver: {@code POST /v1/logs} with {@code application/x-protobuf} or {@code application/json}
 * bodies, optionally gzip, answered with an {@code ExportLogsServiceResponse} in the request's encoding once the
 * accepted records are durable. The tenant is the {@code X-Ourios-Tenant} header (UTF-8; absent means
 * {@code default}).
 *
 * <p>Limits: a body above {@code ingest.max_body_bytes} (declared, read, or decompressed) is 413; a request that
 * does not fit the shared heap budget is 429 and one the WAL cannot take (too much unflushed, failed, shutting
 * down) 503, both with {@code Retry-After}. Requests run on a bounded pool whose full queue makes the acceptor run
 * the request itself, so accepting slows down instead of queueing without bound.
 */
public final class OtlpHttpReceiver {
    public static final String TENANT_HEADER = "X-Ourios-Tenant";
    public static final String DEFAULT_TENANT = "default";
    static final String PROTOBUF = "application/x-protobuf";
    static final String JSON = "application/json";
    private static final Logger LOG = LoggerFactory.getLogger(OtlpHttpReceiver.class);

    private final Ingester ingester;
    private final OtlpCodec codec = new OtlpCodec();
    private final AtomicInteger inFlight = new AtomicInteger();
    private HttpServer server;
    private ThreadPoolExecutor pool;

    public OtlpHttpReceiver(Ingester ingester) {
        this.ingester = ingester;
    }

    /** Binds and starts; returns the bound address (the real port when 0 was configured). */
    public InetSocketAddress start() throws IOException {
        int threads = ingester.settings().threads();
        InetSocketAddress listen = ingester.settings().listen();
        InetSocketAddress bind = listen.isUnresolved() ? new InetSocketAddress(listen.getHostString(), listen.getPort())
                : listen;
        if (bind.isUnresolved()) {
            throw new IOException("cannot resolve host '" + listen.getHostString() + "'");
        }
        server = HttpServer.create(bind, 0);
        pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(threads * 4),
                r -> {
                    Thread t = new Thread(r, "ourios-otlp-http");
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.CallerRunsPolicy());
        server.setExecutor(r -> {
            inFlight.incrementAndGet();
            pool.execute(() -> {
                try {
                    r.run();
                } finally {
                    inFlight.decrementAndGet();
                }
            });
        });
        server.createContext("/", this::handle);
        server.start();
        return server.getAddress();
    }

    /** Stops accepting and waits (at most {@code max}) for the requests already accepted to be answered. */
    public void stop(Duration max) throws InterruptedException {
        if (server == null) {
            return;
        }
        long deadline = System.nanoTime() + max.toNanos();
        while (inFlight.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20); // polling a counter the JDK server gives no callback for
        }
        server.stop(0);
        pool.shutdown();
        pool.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void handle(HttpExchange ex) {
        long start = System.nanoTime();
        boolean json = isJson(ex);
        int status;
        try {
            status = export(ex, json);
        } catch (Refusal r) {
            status = r.status;
            refuse(ex, json, r);
        } catch (Exception e) {
            status = 500;
            LOG.warn("OTLP request failed: {}", e.toString());
            refuse(ex, json, new Refusal(500, "request failed: " + e.getMessage()));
        } finally {
            ex.close();
        }
        ingester.metrics().request(status, System.nanoTime() - start);
    }

    private int export(HttpExchange ex, boolean json) throws Refusal, IOException, InterruptedException {
        if (!ex.getRequestURI().getPath().equals("/v1/logs")) {
            throw new Refusal(404, "no such endpoint: " + ex.getRequestURI().getPath() + " (POST /v1/logs)");
        }
        if (!ex.getRequestMethod().equals("POST")) {
            ex.getResponseHeaders().set("Allow", "POST");
            throw new Refusal(405, "method " + ex.getRequestMethod() + " not allowed (POST /v1/logs)");
        }
        String type = mediaType(ex.getRequestHeaders().getFirst("Content-Type"));
        if (!type.equals(PROTOBUF) && !type.equals(JSON)) {
            throw new Refusal(415, "Content-Type must be " + PROTOBUF + " or " + JSON + ", got '" + type + "'");
        }
        String tenant = tenant(ex.getRequestHeaders().getFirst(TENANT_HEADER));
        IngestResult early = ingester.admission();
        if (early != null) {
            throw new Refusal(early.status(), early.errorMessage(), early.retryAfterSeconds());
        }
        String encoding = ex.getRequestHeaders().getFirst("Content-Encoding");
        boolean gzip = encoding != null && encoding.trim().equalsIgnoreCase("gzip");
        if (encoding != null && !gzip && !encoding.trim().equalsIgnoreCase("identity")) {
            throw new Refusal(415, "Content-Encoding '" + encoding + "' is not supported (gzip or none)");
        }
        int max = ingester.settings().maxBodyBytes();
        checkDeclaredLength(ex.getRequestHeaders().getFirst("Content-Length"), max);
        BodyReader reader = new BodyReader(ingester.budget(), max);
        try {
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = reader.read(in, "request body");
            }
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
                throw new Refusal(400, e.getMessage());
            }
            body = null;
            IngestResult result = ingester.ingest(tenant, request);
            if (result.status() != 200) {
                throw new Refusal(result.status(), result.errorMessage(), result.retryAfterSeconds());
            }
            ExportLogsServiceResponse.Builder response = ExportLogsServiceResponse.newBuilder();
            if (!result.rejections().isEmpty()) {
                response.setPartialSuccess(ExportLogsPartialSuccess.newBuilder()
                        .setRejectedLogRecords(result.rejections().size())
                        .setErrorMessage(result.errorMessage()));
            }
            ExportLogsServiceResponse r = response.build();
            send(ex, 200, json, json ? codec.responseJson(r) : codec.responseProtobuf(r));
            return 200;
        } finally {
            ingester.budget().release(reader.charged());
        }
    }

    private static void checkDeclaredLength(String declared, int max) throws Refusal {
        if (declared == null) {
            return;
        }
        try {
            if (Long.parseLong(declared.trim()) > max) {
                throw new Refusal(413, "request body larger than " + max + " bytes (ingest.max_body_bytes)");
            }
        } catch (NumberFormatException e) {
            throw new Refusal(400, "Content-Length: '" + declared + "' is not a number");
        }
    }

    /**
     * The tenant id: the header's bytes as UTF-8 (HTTP hands header values over as ISO-8859-1 characters, one per
     * byte), checked with the store's tenant codec.
     */
    static String tenant(String header) throws Refusal {
        if (header == null || header.isEmpty()) {
            return DEFAULT_TENANT;
        }
        String t;
        try {
            t = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(header.getBytes(StandardCharsets.ISO_8859_1))).toString();
        } catch (CharacterCodingException e) {
            throw new Refusal(400, TENANT_HEADER + ": not valid UTF-8");
        }
        try {
            TenantCodec.encode(t);
        } catch (IllegalArgumentException e) {
            throw new Refusal(400, TENANT_HEADER + ": " + e.getMessage());
        }
        return t;
    }

    private static String mediaType(String contentType) {
        if (contentType == null) {
            return "";
        }
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    }

    private static boolean isJson(HttpExchange ex) {
        return mediaType(ex.getRequestHeaders().getFirst("Content-Type")).equals(JSON);
    }

    private static void refuse(HttpExchange ex, boolean json, Refusal r) {
        if (r.retryAfterSeconds > 0) {
            ex.getResponseHeaders().set("Retry-After", Integer.toString(r.retryAfterSeconds));
        }
        int code = RpcStatus.codeFor(r.status);
        String msg = r.getMessage() == null ? "" : r.getMessage();
        try {
            send(ex, r.status, json, json ? RpcStatus.json(code, msg) : RpcStatus.protobuf(code, msg));
        } catch (IOException | RuntimeException e) {
            // the client went away, or the response was already started
        }
    }

    private static void send(HttpExchange ex, int status, boolean json, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", json ? JSON : PROTOBUF);
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
