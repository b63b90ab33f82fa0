package dev.ourios.otlp;

/** A request body that is not an OTLP logs request at all (HTTP 400): nothing of it is accepted. */
public final class UndecodableException extends Exception {
    private static final long serialVersionUID = 1L;

    public UndecodableException(String message, Throwable cause) {
        super(message, cause);
    }
}
