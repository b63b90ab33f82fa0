package dev.ourios.parquet.index;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The string values of an attribute array, by key (what the token index holds of attributes): read with a streaming
 * parser for the canonical form every row is stored in ({@code [{"key":K,"value":{"stringValue":V}},…]}, members of a
 * value in any of their spellings), without building a tree. Anything else (an array value, members out of order, an
 * unexpected token) is handed to {@link AttributesJson#decode}, whose values are then walked: the keys are always a
 * superset of what the search language's attribute terms can match on the row.
 */
final class AttributeStrings {
    private static final JsonFactory FACTORY = new JsonFactory();

    /** Receives one (key, string value). */
    @FunctionalInterface
    interface Sink {
        void accept(String key, String value);
    }

    private AttributeStrings() {
    }

    /** Every (key, string value) of {@code json}; throws what {@link AttributesJson#decode} throws on bad input. */
    static void each(String json, Sink sink) {
        List<String[]> fast = fast(json);
        if (fast != null) {
            for (String[] kv : fast) {
                sink.accept(kv[0], kv[1]);
            }
            return;
        }
        for (KeyValue kv : AttributesJson.decode(json)) {
            List<AnyValue> pending = new ArrayList<>();
            pending.add(kv.value());
            while (!pending.isEmpty()) {
                AnyValue v = pending.remove(pending.size() - 1);
                if (v instanceof AnyValue.StringValue s) {
                    sink.accept(kv.key(), s.value());
                } else if (v instanceof AnyValue.ArrayValue a) {
                    pending.addAll(a.values());
                }
            }
        }
    }

    /** The pairs of a canonical array, or null when the text is anything else. */
    private static List<String[]> fast(String json) {
        List<String[]> out = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return null;
            }
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.START_OBJECT || p.nextToken() != JsonToken.FIELD_NAME
                        || !p.currentName().equals("key") || p.nextToken() != JsonToken.VALUE_STRING) {
                    return null;
                }
                String key = p.getText();
                if (p.nextToken() != JsonToken.FIELD_NAME || !p.currentName().equals("value")
                        || p.nextToken() != JsonToken.START_OBJECT) {
                    return null;
                }
                for (JsonToken m = p.nextToken(); m != JsonToken.END_OBJECT; m = p.nextToken()) {
                    if (m != JsonToken.FIELD_NAME) {
                        return null;
                    }
                    String member = p.currentName();
                    JsonToken v = p.nextToken();
                    if (member.equals("stringValue") || member.equals("string_value")) {
                        if (v == JsonToken.VALUE_STRING) {
                            out.add(new String[] {key, p.getText()});
                        } else if (v != JsonToken.VALUE_NULL) {
                            return null;
                        }
                    } else if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                        return null; // an array or key-value list: the decoder walks it
                    }
                }
                if (p.nextToken() != JsonToken.END_OBJECT) {
                    return null;
                }
            }
            return p.nextToken() == null ? out : null;
        } catch (IOException | RuntimeException e) {
            return null; // the decoder says what is wrong
        }
    }
}
