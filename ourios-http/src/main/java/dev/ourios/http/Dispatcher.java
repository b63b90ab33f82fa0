package dev.ourios.http;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import dev.ourios.security.ThrottledLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes a request: path (404) and method (405), the gate, the declared body size (413), the route's admission,
 * the body read without holding a thread (bounded by the body timeout: 408), then the handler on a pool thread.
 * A handler's {@link HttpRefusal} is rendered with the listener's {@link ErrorBody}; any other exception is a 500
 * saying only "internal error" and the request id, with the stack trace in the log under the same id.
 *
 * <p>Every refusal is logged once at WARN with its request id, client address, method, path, tenant (once the gate
 * decided one) and message, at most {@link #LOG_LINES_PER_SECOND} lines a second per status (the rest counted);
 * the gate's refusals are logged by the authorizer that decided them. Messages are cut to
 * {@link #MAX_MESSAGE_CHARS} characters in the answer and the log, so no value a client sent comes back whole.
 */
final class Dispatcher extends Handler.Abstract {
    static final String REQUEST_ID_HEADER = "X-Request-Id";
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    static final int LOG_LINES_PER_SECOND = 10;
    static final int MAX_MESSAGE_CHARS = 300;
    private final ThrottledLog refusals = new ThrottledLog(LOG, LOG_LINES_PER_SECOND);

    private final Map<String, Map<String, Route>> routes;
    private final String known;
    private final RequestGate gate;
    private final ErrorBody errors;
    private final FailureLog failures;
    private final Duration bodyTimeout;
    private final ThreadPoolExecutor handlers;

    Dispatcher(List<Route> routeList, RequestGate gate, ErrorBody errors, FailureLog failures, ServerOptions options,
            ThreadPoolExecutor handlers) {
        Map<String, Map<String, Route>> m = new LinkedHashMap<>();
        for (Route r : routeList) {
            if (m.computeIfAbsent(r.path(), p -> new LinkedHashMap<>()).put(r.method(), r) != null) {
                throw new IllegalArgumentException("two routes for " + r.method() + " " + r.path());
            }
        }
        this.routes = m;
        this.known = routeList.stream().map(r -> r.method() + " " + r.path()).collect(Collectors.joining(", "));
        this.gate = gate;
        this.errors = errors;
        this.failures = failures;
        this.bodyTimeout = options.bodyTimeout();
        this.handlers = handlers;
    }

    /**
     * The route template a path with one variable segment falls under ({@code /a/x/b} matches a route
     * {@code /a/{name}/b}), or the path itself. A variable segment is never empty.
     */
    private String template(String path) {
        String[] parts = path.split("/", -1);
        for (String route : routes.keySet()) {
            if (!route.contains("{")) {
                continue;
            }
            String[] want = route.split("/", -1);
            if (want.length != parts.length) {
                continue;
            }
            boolean fits = true;
            for (int i = 0; i < want.length && fits; i++) {
                fits = want[i].startsWith("{") ? !parts[i].isEmpty() : want[i].equals(parts[i]);
            }
            if (fits) {
                return route;
            }
        }
        return path;
    }

    @Override
    public boolean handle(Request request, Response response, Callback jettyCallback) {
        long start = System.nanoTime();
        // runs on success and on failure: every request is reported once, cut responses included
        Callback callback = Callback.from(jettyCallback, () -> failures.completed(request.getMethod(),
                request.getHttpURI().getPath(), response.getStatus(), System.nanoTime() - start));
        String id = RequestIds.next();
        response.getHeaders().put(REQUEST_ID_HEADER, id);
        String path;
        try {
            path = request.getHttpURI().getDecodedPath();
        } catch (RuntimeException e) {
            refuse(request, response, callback, id, null, new HttpRefusal(400, null, "malformed request path"));
            return true;
        }
        Exchange ex = new Exchange(request, response, id, path == null ? "/" : path);
        Runnable release = () -> { };
        try {
            if (handlers.getActiveCount() >= handlers.getMaximumPoolSize()
                    && handlers.getQueue().remainingCapacity() == 0) {
                throw atCapacity(); // refused before the body is read
            }
            Map<String, Route> byMethod = routes.get(ex.path());
            if (byMethod == null) {
                byMethod = routes.get(template(ex.path()));
            }
            if (byMethod == null) {
                throw new HttpRefusal(404, null, "no such endpoint: " + ex.path() + " (" + known + ")");
            }
            Route route = byMethod.get(request.getMethod());
            if (route == null) {
                response.getHeaders().put(HttpHeader.ALLOW, String.join(", ", byMethod.keySet()));
                throw new HttpRefusal(405, null, ex.path() + " accepts " + String.join(", ", byMethod.keySet())
                        + " only");
            }
            if (route.gated()) {
                Optional<HttpRefusal> no = gate.check(ex);
                if (no.isPresent()) {
                    throw no.get();
                }
            }
            long declared = request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
            if (route.maxBodyBytes() > 0 && declared > route.maxBodyBytes()) {
                throw tooLarge(route);
            }
            release = route.admission().admit(ex, declared);
            if (route.maxBodyBytes() == 0) {
                Runnable releaseOnce = release;
                release = () -> { };
                dispatch(route, ex, callback, releaseOnce);
                return true;
            }
            Runnable releaseOnce = release;
            release = () -> { };
            CompletableFuture<byte[]> body = new CompletableFuture<>();
            // A metered admission pays for the body as it arrives, chunk by chunk.
            Content.Source source = releaseOnce instanceof Route.BodyMeter meter
                    ? new MeteredSource(request, meter) : request;
            Content.Source.asByteArrayAsync(source, route.maxBodyBytes(), new Promise.Invocable<byte[]>() {
                @Override
                public void succeeded(byte[] bytes) {
                    body.complete(bytes);
                }

                @Override
                public void failed(Throwable x) {
                    body.completeExceptionally(x);
                }

                @Override
                public InvocationType getInvocationType() {
                    return InvocationType.NON_BLOCKING; // afterBody only hands over to the pool or writes async
                }
            });
            body.orTimeout(bodyTimeout.toMillis(), TimeUnit.MILLISECONDS)
                    .whenComplete((bytes, failure) -> afterBody(route, ex, callback, releaseOnce, bytes, failure));
        } catch (HttpRefusal r) {
            release.run();
            refuse(request, response, callback, id, ex.decidedTenant().orElse(null), r);
        } catch (RuntimeException e) {
            release.run();
            fail(ex, callback, e);
        }
        return true;
    }

    private void afterBody(Route route, Exchange ex, Callback callback, Runnable release, byte[] bytes,
            Throwable failure) {
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            release.run();
            if (cause instanceof TimeoutException) {
                ex.response().getHeaders().put(HttpHeader.CONNECTION, "close");
                refuse(ex, callback, new HttpRefusal(408, null,
                        "request body not received within " + bodyTimeout.toSeconds() + "s (the body timeout)"));
            } else if (cause instanceof HttpRefusal refused) {
                // The body's memory was refused part way: the rest of it is not read.
                ex.response().getHeaders().put(HttpHeader.CONNECTION, "close");
                refuse(ex, callback, refused);
            } else if (tooLarge(cause)) {
                ex.response().getHeaders().put(HttpHeader.CONNECTION, "close");
                refuse(ex, callback, tooLarge(route));
            } else {
                // the client went away or sent a malformed body (e.g. bad chunking): nothing useful to answer
                LOG.debug("request {}: body not read: {}", ex.requestId(), cause.toString());
                callback.failed(cause);
            }
            return;
        }
        ex.body(bytes);
        dispatch(route, ex, callback, release);
    }

    /** The handler on a handler thread, or 503 when every handler thread is busy and the waiting room full. */
    private void dispatch(Route route, Exchange ex, Callback callback, Runnable release) {
        try {
            handlers.execute(() -> run(route, ex, callback, release));
        } catch (RejectedExecutionException e) {
            release.run();
            refuse(ex, callback, atCapacity());
        }
    }

    private HttpRefusal atCapacity() {
        return new HttpRefusal(503, null, "the server is at capacity (" + handlers.getMaximumPoolSize()
                + " handler threads busy, " + handlers.getQueue().size() + " requests waiting)", 1);
    }

    private void run(Route route, Exchange ex, Callback callback, Runnable release) {
        try {
            route.handler().handle(ex);
            OutputStream stream = ex.openStream();
            if (stream != null) {
                stream.close();
            } else if (!ex.started()) {
                ex.send(204, "application/json", new byte[0]);
            }
            callback.succeeded();
        } catch (HttpRefusal r) {
            if (ex.started()) {
                callback.failed(r);
            } else {
                refuse(ex, callback, r);
            }
        } catch (Throwable e) {
            fail(ex, callback, e);
        } finally {
            release.run();
        }
    }

    private void fail(Exchange ex, Callback callback, Throwable e) {
        if (e instanceof java.io.IOException && ex.started()) {
            // writing to a client that went away or stopped reading: nothing to answer, not a server fault
            LOG.debug("request {} {} {}: response cut: {}", ex.requestId(), ex.method(), ex.path(), e.toString());
            callback.failed(e);
            return;
        }
        failures.failed(ex.requestId(), ex.method(), ex.path(), e);
        if (ex.started()) {
            callback.failed(e); // the client sees a cut response, never a 200 that looks complete
        } else {
            // the failure log has it, with the stack trace
            refuse(ex.request(), ex.response(), callback, ex.requestId(), ex.decidedTenant().orElse(null),
                    new HttpRefusal(500, null, "internal error (request id " + ex.requestId() + ")").alreadyLogged());
        }
    }

    private void refuse(Exchange ex, Callback callback, HttpRefusal r) {
        refuse(ex.request(), ex.response(), callback, ex.requestId(), ex.decidedTenant().orElse(null), r);
    }

    private void refuse(Request request, Response response, Callback callback, String id, String tenant,
            HttpRefusal r) {
        String message = bounded(r.getMessage());
        if (!r.logged()) {
            refusals.warn(Integer.toString(r.status()), "request " + id + " from " + remote(request) + " "
                    + request.getMethod() + " " + bounded(request.getHttpURI().getPath()) + " refused (" + r.status()
                    + ", tenant " + (tenant == null ? "not decided" : "'" + tenant + "'") + "): " + message);
        }
        ErrorBody.Rendered body = errors.render(r.status(), r.fieldName(), message, id,
                request.getHeaders().get(HttpHeader.CONTENT_TYPE));
        response.setStatus(r.status());
        if (r.retryAfterSeconds() > 0) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, r.retryAfterSeconds());
        }
        if (request.getLength() != 0) {
            // The body may be unread (a refusal before it, by the gate or the admission): the connection cannot
            // carry another request, and a client must know not to reuse it.
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        if (r.challenge() != null) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, r.challenge());
        }
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, body.contentType());
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.body().length);
        response.write(true, ByteBuffer.wrap(body.body()), callback);
    }

    /** At most {@link #MAX_MESSAGE_CHARS} characters: a refusal quotes what it must, never a whole value. */
    static String bounded(String message) {
        if (message == null || message.length() <= MAX_MESSAGE_CHARS) {
            return message;
        }
        return message.substring(0, MAX_MESSAGE_CHARS - 1) + "…";
    }

    static String remote(Request request) {
        java.net.SocketAddress a = request.getConnectionMetaData().getRemoteSocketAddress();
        return a instanceof java.net.InetSocketAddress i && i.getAddress() != null ? i.getAddress().getHostAddress()
                : String.valueOf(a);
    }

    /** Jetty's failure for a body over the size given to the read ("Max size (N) exceeded"). */
    private static boolean tooLarge(Throwable cause) {
        return (cause instanceof IllegalStateException || cause instanceof IllegalArgumentException)
                && String.valueOf(cause.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("max size");
    }

    private static HttpRefusal tooLarge(Route route) {
        return new HttpRefusal(413, null, "request body larger than " + route.maxBodyBytes() + " bytes");
    }
}
