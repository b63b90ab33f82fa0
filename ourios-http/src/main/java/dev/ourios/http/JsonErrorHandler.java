package dev.ourios.http;

import dev.ourios.security.ThrottledLog;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.slf4j.LoggerFactory;

/**
 * The answers Jetty sends on its own, before a request reaches a route: a malformed request line, a bogus
 * {@code Content-Length}, headers over the size limit (431), an ambiguous path. JSON in the listener's shape
 * instead of Jetty's HTML or plain text, with a request id like every other response. Jetty's own message is
 * kept: it names the fault ("Invalid Content-Length Value", "Request Header Fields Too Large") and never holds a
 * server path. Each is logged once, as the dispatcher logs its refusals (rate-limited per status); a request the
 * parser could not read has no address or path to name.
 */
final class JsonErrorHandler extends ErrorHandler {
    private final ErrorBody errors;
    private final ThrottledLog refusals = new ThrottledLog(LoggerFactory.getLogger(JsonErrorHandler.class),
            Dispatcher.LOG_LINES_PER_SECOND);

    JsonErrorHandler(ErrorBody errors) {
        this.errors = errors;
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        String id = RequestIds.next();
        String text = Dispatcher.bounded(message(status, reason));
        refusals.warn(Integer.toString(status), "request " + id + " (not parsed) refused (" + status + "): " + text);
        ErrorBody.Rendered body = errors.render(status, null, text, id, null);
        fields.put(HttpHeader.CONTENT_TYPE, body.contentType());
        fields.put(Dispatcher.REQUEST_ID_HEADER, id);
        return ByteBuffer.wrap(body.body());
    }

    @Override
    protected void generateResponse(Request request, Response response, int status, String reason,
            Throwable cause, Callback callback) {
        String id = response.getHeaders().get(Dispatcher.REQUEST_ID_HEADER);
        if (id == null) {
            id = RequestIds.next();
            response.getHeaders().put(Dispatcher.REQUEST_ID_HEADER, id);
        }
        // 503 is Jetty refusing a request while the server stops (graceful shutdown): say so, not "internal error".
        String text = Dispatcher.bounded(status == 503 ? "unavailable: the server is stopping" : status >= 500
                ? "internal error (request id " + id + ")" : message(status, reason));
        refusals.warn(Integer.toString(status), "request " + id + " from " + Dispatcher.remote(request) + " "
                + request.getMethod() + " " + Dispatcher.bounded(request.getHttpURI().getPath()) + " refused ("
                + status + "): " + text);
        ErrorBody.Rendered body = errors.render(status, null, text, id, request.getHeaders().get(HttpHeader.CONTENT_TYPE));
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, body.contentType());
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.body().length);
        response.write(true, ByteBuffer.wrap(body.body()), callback);
    }

    private static String message(int status, String reason) {
        String r = reason == null || reason.isBlank() ? org.eclipse.jetty.http.HttpStatus.getMessage(status) : reason;
        return "malformed or refused request: " + r.replace('\n', ' ');
    }
}
