package dev.ourios.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * The two OTLP/HTTP encodings of the logs request and response: binary protobuf, and OTLP/JSON.
 *
 * <p>OTLP/JSON is proto3 JSON with one deviation: {@code traceId} and {@code spanId} are hex, not base64. protobuf's
 * {@link JsonFormat} maps everything else correctly (int64 as string or number, enums as integers or names,
 * lowerCamelCase or snake_case names), so the ids are rewritten to base64 in the parsed tree first and the tree is
 * then handed to {@link JsonFormat}. Unknown fields are ignored, as the OTLP specification requires of receivers.
 */
public final class OtlpCodec {
    /** Longest message of an {@link UndecodableException}: a client's bad value never comes back whole. */
    public static final int MAX_MESSAGE_CHARS = 300;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> ID_FIELDS = List.of("traceId", "trace_id", "spanId", "span_id");

    private final JsonFormat.Parser parser = JsonFormat.parser().ignoringUnknownFields();
    private final JsonFormat.Printer printer = JsonFormat.printer().omittingInsignificantWhitespace();

    public ExportLogsServiceRequest parseProtobuf(byte[] body) throws UndecodableException {
        try {
            return ExportLogsServiceRequest.parseFrom(body);
        } catch (InvalidProtocolBufferException e) {
            throw new UndecodableException(message("not an OTLP ExportLogsServiceRequest (protobuf): "
                    + DecodeMessages.plain(e.getMessage())), e);
        }
    }

    public ExportLogsServiceRequest parseJson(byte[] body) throws UndecodableException {
        try {
            JsonNode root = JSON.readTree(body);
            if (root == null || !root.isObject()) {
                throw new UndecodableException("not an OTLP/JSON logs request: expected a JSON object", null);
            }
            hexIdsToBase64(root);
            ExportLogsServiceRequest.Builder b = ExportLogsServiceRequest.newBuilder();
            parser.merge(JSON.writeValueAsString(root), b);
            return b.build();
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            throw new UndecodableException(message("not an OTLP/JSON logs request: "
                    + DecodeMessages.constraint(e.getOriginalMessage()) + at(e)), e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // The original message in plain words: no location suffix naming a source, no library names.
            throw new UndecodableException(message("not an OTLP/JSON logs request: malformed JSON" + at(e) + ": "
                    + DecodeMessages.plain(e.getOriginalMessage())), e);
        } catch (IOException | IllegalArgumentException e) {
            throw new UndecodableException(message("not an OTLP/JSON logs request: "
                    + DecodeMessages.plain(e.getMessage())), e);
        }
    }

    private static String at(com.fasterxml.jackson.core.JsonProcessingException e) {
        var at = e.getLocation();
        return at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    private static String message(String m) {
        return DecodeMessages.bounded(m, MAX_MESSAGE_CHARS);
    }

    public byte[] responseProtobuf(ExportLogsServiceResponse response) {
        return response.toByteArray();
    }

    public byte[] responseJson(ExportLogsServiceResponse response) {
        try {
            return printer.print(response).getBytes(StandardCharsets.UTF_8);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("cannot print a response", e);
        }
    }

    /** resourceLogs[].scopeLogs[].logRecords[].{traceId,spanId}: hex (OTLP/JSON) to base64 (proto3 JSON). */
    private static void hexIdsToBase64(JsonNode root) throws UndecodableException {
        for (JsonNode rl : elements(root, "resourceLogs", "resource_logs")) {
            for (JsonNode sl : elements(rl, "scopeLogs", "scope_logs")) {
                for (JsonNode rec : elements(sl, "logRecords", "log_records")) {
                    if (!(rec instanceof ObjectNode o)) {
                        continue; // JsonFormat reports the wrong type
                    }
                    for (String f : ID_FIELDS) {
                        JsonNode v = o.get(f);
                        if (v != null && v.isTextual()) {
                            o.put(f, Base64.getEncoder().encodeToString(hex(f, v.textValue())));
                        }
                    }
                }
            }
        }
    }

    private static byte[] hex(String field, String s) throws UndecodableException {
        try {
            return HexFormat.of().parseHex(s);
        } catch (IllegalArgumentException e) {
            throw new UndecodableException(message(field + ": '" + DecodeMessages.plain(s) + "' is not hex"), e);
        }
    }

    private static Iterable<JsonNode> elements(JsonNode obj, String camel, String snake) {
        if (obj == null || !obj.isObject()) {
            return List.of();
        }
        JsonNode v = obj.has(camel) ? obj.get(camel) : obj.get(snake);
        return v instanceof ArrayNode a ? a : List.of();
    }
}
