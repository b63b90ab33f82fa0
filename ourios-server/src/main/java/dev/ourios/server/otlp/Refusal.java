package dev.ourios.server.otlp;

/**
 * A request a receiver answers with an error: the HTTP status (the gRPC receiver maps it with
 * {@link RpcStatus#codeFor}) and, for the retryable ones (429/503), the seconds a client should wait.
 */
public final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;
    final int retryAfterSeconds;

    public Refusal(int status, String message) {
        this(status, message, 0);
    }

    public Refusal(int status, String message, int retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int status() {
        return status;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
