package dev.ourios.server.otlp;

/** A request the receiver answers with an error status (and, for 429/503, a Retry-After). */
final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;
    final int retryAfterSeconds;

    Refusal(int status, String message) {
        this(status, message, 0);
    }

    Refusal(int status, String message, int retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
    }
}
