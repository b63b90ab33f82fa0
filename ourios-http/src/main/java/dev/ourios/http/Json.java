package dev.ourios.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The one JSON mapper of the server and the error object shape. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Object> error(int status, String field, String message, String requestId) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("status", status);
        e.put("field", field);
        e.put("message", message);
        e.put("request_id", requestId);
        return Map.of("error", e);
    }
}
