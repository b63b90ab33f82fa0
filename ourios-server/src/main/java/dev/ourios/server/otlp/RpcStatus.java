package dev.ourios.server.otlp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The body of an OTLP/HTTP error response: a {@code google.rpc.Status} ({@code int32 code = 1; string message = 2})
 * in the request's encoding. Written with protobuf-java's own {@link CodedOutputStream}, since the generated
 * {@code google.rpc} classes live in a library the receiver otherwise has no use for.
 */
final class RpcStatus {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** gRPC codes for the HTTP statuses the receiver sends. */
    static final int INVALID_ARGUMENT = 3;
    static final int RESOURCE_EXHAUSTED = 8;
    static final int UNAVAILABLE = 14;
    static final int INTERNAL = 13;
    static final int UNIMPLEMENTED = 12;
    static final int NOT_FOUND = 5;

    private RpcStatus() {
    }

    static int codeFor(int httpStatus) {
        return switch (httpStatus) {
            case 400, 413, 415 -> INVALID_ARGUMENT;
            case 404 -> NOT_FOUND;
            case 405 -> UNIMPLEMENTED;
            case 429 -> RESOURCE_EXHAUSTED;
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
