package dev.ourios.server.otlp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The gRPC status code of every refusal both OTLP receivers make, and the body of an OTLP/HTTP error response: a
 * {@code google.rpc.Status} ({@code int32 code = 1; string message = 2}) in the request's encoding. One table for
 * both receivers, so a refusal has the same code whether it came over HTTP or gRPC. Written with protobuf-java's own
 * {@link CodedOutputStream}, so the HTTP path needs no generated {@code google.rpc} classes.
 */
public final class RpcStatus {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** gRPC codes (grpc/status.proto). */
    public static final int INVALID_ARGUMENT = 3;
    public static final int DEADLINE_EXCEEDED = 4;
    public static final int NOT_FOUND = 5;
    public static final int PERMISSION_DENIED = 7;
    public static final int RESOURCE_EXHAUSTED = 8;
    public static final int FAILED_PRECONDITION = 9;
    public static final int UNIMPLEMENTED = 12;
    public static final int INTERNAL = 13;
    public static final int UNAVAILABLE = 14;
    public static final int UNAUTHENTICATED = 16;

    private RpcStatus() {
    }

    /**
     * The gRPC code of an HTTP refusal. 429 (the request buffer is full) and 503 (the write-ahead log is behind, or
     * the server stops) are the retryable ones: RESOURCE_EXHAUSTED and UNAVAILABLE, sent over gRPC with a
     * {@code RetryInfo}, as the OTLP specification asks of a server that can recover. 413 and 431 (too large) are
     * RESOURCE_EXHAUSTED without one: a retry of the same request fails the same way. 426 (plain HTTP on a TLS port)
     * is FAILED_PRECONDITION: the client must change how it connects, not what it sends.
     */
    public static int codeFor(int httpStatus) {
        return switch (httpStatus) {
            case 400, 414, 415 -> INVALID_ARGUMENT;
            case 401 -> UNAUTHENTICATED;
            case 403 -> PERMISSION_DENIED;
            case 404 -> NOT_FOUND;
            case 405 -> UNIMPLEMENTED;
            case 408 -> DEADLINE_EXCEEDED;
            case 413, 429, 431 -> RESOURCE_EXHAUSTED;
            case 426 -> FAILED_PRECONDITION;
            case 503 -> UNAVAILABLE;
            default -> INTERNAL;
        };
    }

    static byte[] protobuf(int code, String message) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            out.writeInt32(1, code);
            out.writeString(2, message);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] json(int code, String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("code", code);
        m.put("message", message);
        try {
            return JSON.writeValueAsBytes(m);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
