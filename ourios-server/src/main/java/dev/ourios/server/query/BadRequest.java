package dev.ourios.server.query;

import dev.ourios.http.HttpRefusal;

/**
 * A request the server refuses: the HTTP status, the field, header or parameter at fault (may be null) and one
 * line saying what is wrong. Sent as {@code {"error":{"status","field","message","request_id"}}}.
 */
final class BadRequest extends HttpRefusal {
    private static final long serialVersionUID = 1L;

    BadRequest(int status, String field, String message) {
        super(status, field, message);
    }

    static BadRequest field(String field, String message) {
        return new BadRequest(400, field, field + ": " + message);
    }
}
