package dev.ourios.security;

import java.util.Objects;

/**
 * Who sent a request, for the log line of its refusal: the request id the server answered with, the client's
 * address and the path (or gRPC method) it asked for.
 */
public record Caller(String requestId, String address, String path) {
    /** For callers that know none of it (the log line then says so). */
    public static final Caller UNKNOWN = new Caller("-", "-", "-");

    public Caller {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(path, "path");
    }
}
