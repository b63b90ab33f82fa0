package dev.ourios.http;

import java.util.List;
import java.util.Objects;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;

/**
 * One request and its response, as a route handler sees it: the request line, headers and body, and either one
 * whole response ({@link #send}) or a streamed one ({@link #stream}). Handlers run on a pool thread and may block.
 */
public final class Exchange {
    private final Request request;
    private final Response response;
    private final String requestId;
    private final String path;
    private final long startNanos = System.nanoTime();
    private byte[] body = new byte[0];
    private OutputStream stream;
    private boolean sent;
    private String tenant;

    Exchange(Request request, Response response, String requestId, String path) {
        this.request = request;
        this.response = response;
        this.requestId = requestId;
        this.path = path;
    }

    public String method() {
        return request.getMethod();
    }

    /** The decoded path. */
    public String path() {
        return path;
    }

    /** The first value of a request header, or null. */
    public String header(String name) {
        return request.getHeaders().get(name);
    }

    /** Every value of a request header, in order; empty when the header is absent. */
    public List<String> headers(String name) {
        return request.getHeaders().getValuesList(name);
    }

    /** Records the tenant the request acts for, as its gate decided it. */
    public void actFor(String tenant) {
        this.tenant = Objects.requireNonNull(tenant, "tenant");
    }

    /**
     * The tenant the request acts for, as its gate decided it; only gated routes have one, so a route that asks
     * without a gate is a programming error.
     */
    public String tenant() {
        if (tenant == null) {
            throw new IllegalStateException("BUG: " + path + " reads the tenant but no gate decided one");
        }
        return tenant;
    }

    /** The tenant the gate decided, or empty before the gate (or on an ungated route). */
    public java.util.Optional<String> decidedTenant() {
        return java.util.Optional.ofNullable(tenant);
    }

    public String requestId() {
        return requestId;
    }

    /** The request body, empty when the route reads none. */
    public byte[] body() {
        return body;
    }

    void body(byte[] bytes) {
        this.body = bytes;
    }

    /** Nanoseconds since the request reached its route. */
    public long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }

    /** The client's address, for logs. */
    public String remoteAddress() {
        SocketAddress a = request.getConnectionMetaData().getRemoteSocketAddress();
        return a instanceof InetSocketAddress i ? i.getAddress().getHostAddress() : String.valueOf(a);
    }

    /**
     * The query string's parameters, decoded strictly: a malformed escape ({@code %zz}) or a parameter given twice
     * is a 400 naming it.
     */
    public Map<String, String> queryParameters() {
        Map<String, String> out = new LinkedHashMap<>();
        String raw = request.getHttpURI().getQuery();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq), "query parameter name");
            String v = eq < 0 ? "" : decode(pair.substring(eq + 1), k);
            if (out.put(k, v) != null) {
                throw new HttpRefusal(400, k, k + ": given twice");
            }
        }
        return out;
    }

    private static String decode(String s, String field) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new HttpRefusal(400, field, field + ": malformed percent-encoding in the query string");
        }
    }

    /** Sets a response header (before the response is sent). */
    public void responseHeader(String name, String value) {
        response.getHeaders().put(name, value);
    }

    /** Sends a whole JSON response. */
    public void sendJson(int status, Object value) throws IOException {
        send(status, "application/json; charset=utf-8", Json.bytes(value));
    }

    /** Sends a whole response; the handler may return right after. */
    public void send(int status, String contentType, byte[] bytes) throws IOException {
        if (sent) {
            throw new IllegalStateException("response already sent");
        }
        sent = true;
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        try (Blocker.Callback done = Blocker.callback()) {
            response.write(true, ByteBuffer.wrap(bytes), done);
            done.block();
        }
    }

    /**
     * Starts a streamed response: the status and headers go out with the first flushed bytes; writes block while
     * the client is slow to read (bounded by the idle timeout), so a response never piles up in memory. Closed by
     * the server when the handler returns.
     */
    public OutputStream stream(int status, String contentType) {
        if (sent) {
            throw new IllegalStateException("response already sent");
        }
        sent = true;
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        stream = Content.Sink.asOutputStream(response);
        return stream;
    }

    /** Whether a response (or the start of a streamed one) was sent: an error can then only cut it. */
    public boolean started() {
        return sent;
    }

    OutputStream openStream() {
        return stream;
    }

    Request request() {
        return request;
    }

    Response response() {
        return response;
    }
}
