package dev.ourios.cli.serve;

/**
 * A request the server refuses: the HTTP status, the field, header or parameter at fault (may be null) and one
 * line saying what is wrong. Sent as {@code {"error":{"status","field","message"}}}.
 */
final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String field;

    BadRequest(int status, String field, String message) {
        super(message);
        this.status = status;
        this.field = field;
    }

    static BadRequest field(String field, String message) {
        return new BadRequest(400, field, field + ": " + message);
    }

    int status() {
        return status;
    }

    String fieldName() {
        return field;
    }
}
