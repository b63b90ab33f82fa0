package dev.ourios.http;

/**
 * A request the server refuses: the HTTP status, the field, header or parameter at fault (may be null), one line
 * saying what is wrong, and for 429/503 the seconds a client should wait ({@code Retry-After}; 0 = none). Thrown by
 * a route, or returned by a {@link RequestGate}; the server renders it with the listener's {@link ErrorBody}.
 */
public class HttpRefusal extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String field;
    private final int retryAfterSeconds;
    private final String challenge;
    private boolean logged;

    public HttpRefusal(int status, String field, String message) {
        this(status, field, message, 0);
    }

    public HttpRefusal(int status, String field, String message, int retryAfterSeconds) {
        this(status, field, message, retryAfterSeconds, null);
    }

    /** A refusal with a {@code WWW-Authenticate} challenge (a 401; RFC 9110 section 11.6.1), or null for none. */
    public HttpRefusal(int status, String field, String message, int retryAfterSeconds, String challenge) {
        super(message, null, false, false);
        this.status = status;
        this.field = field;
        this.retryAfterSeconds = retryAfterSeconds;
        this.challenge = challenge;
    }

    /** Marks a refusal whose log line was written where it was decided (the authorizer's), so it is not repeated. */
    public HttpRefusal alreadyLogged() {
        logged = true;
        return this;
    }

    public boolean logged() {
        return logged;
    }

    /** The {@code WWW-Authenticate} value to send, or null. */
    public String challenge() {
        return challenge;
    }

    public int status() {
        return status;
    }

    /** The field, header or parameter at fault, or null. */
    public String fieldName() {
        return field;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
