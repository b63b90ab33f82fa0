package dev.ourios.query.search;

import dev.ourios.core.Bytes;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import dev.ourios.core.LineText;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One row as the terms of a query read it, each part derived once and only when a term asks: the line, its tokens,
 * the parsed attribute lists, the service. A query of many terms over one row decodes each part at most once.
 * Not thread-safe: one per row, on the thread deciding it.
 */
final class SearchRow {
    private static final String SERVICE_KEY = "service.name";

    private final LogRecord record;
    private boolean lineRead;
    private byte[] lineBytes;
    private boolean lineDecoded;
    private String line;
    private List<String> tokens;
    private List<KeyValue> attributes;
    private List<KeyValue> resource;

    SearchRow(LogRecord record) {
        this.record = record;
    }

    LogRecord record() {
        return record;
    }

    /** The log line's UTF-8 bytes (docs/spec/query.md, section 4), or null when the row has none. */
    byte[] lineBytes() {
        if (!lineRead) {
            lineBytes = LineText.of(record);
            lineRead = true;
        }
        return lineBytes;
    }

    /** The log line (docs/spec/query.md, section 4), or null when the row has none. */
    String line() {
        if (!lineDecoded) {
            byte[] bytes = lineBytes();
            line = bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
            lineDecoded = true;
        }
        return line;
    }

    /** The line's tokens (none without a line). */
    List<String> tokens() {
        if (tokens == null) {
            tokens = line() == null ? List.of() : Tokenizer.tokens(line());
        }
        return tokens;
    }

    /** The service as {@code --service} reads it: the promoted column, else the first string service.name. */
    String service() {
        if (record.serviceName() != null) {
            return record.serviceName();
        }
        return AttributesJson.firstString(record.resourceAttributes(), SERVICE_KEY).orElse(null);
    }

    String traceIdHex() {
        return record.traceId() == null ? null : Bytes.hex(record.traceId());
    }

    String spanIdHex() {
        return record.spanId() == null ? null : Bytes.hex(record.spanId());
    }

    List<KeyValue> attributes() {
        if (attributes == null) {
            attributes = AttributesJson.decode(record.attributes());
        }
        return attributes;
    }

    List<KeyValue> resource() {
        if (resource == null) {
            resource = AttributesJson.decode(record.resourceAttributes());
        }
        return resource;
    }
}
