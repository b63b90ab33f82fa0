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
        List<String[]> fast = scanned(json);
        if (fast == null) {
            fast = fast(json);
        }
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

    /**
     * The pairs of the canonical form exactly as it is written (no whitespace, no escape: no backslash anywhere,
     * {@code {"key":"K","value":{member,...}}} elements, scalar members and strings free of control characters), read
     * by position without a parser; null for anything else, which {@link #fast} reads. On the text it accepts it
     * finds what {@link #fast} finds: a string has no escape to decode, and every other token is checked as JSON
     * requires ({@code AttributeStringsTest} holds the two to the same pairs).
     */
    static List<String[]> scanned(String json) {
        if (json.indexOf('\\') >= 0) {
            return null;
        }
        Scan in = new Scan(json);
        List<String[]> out = new ArrayList<>();
        if (!in.take('[')) {
            return null;
        }
        if (in.take(']')) {
            return in.atEnd() ? out : null;
        }
        do {
            if (!in.take("{\"key\":")) {
                return null;
            }
            String key = in.string();
            if (key == null || !in.take(",\"value\":{")) {
                return null;
            }
            do {
                String member = in.string();
                if (member == null || !in.take(':')) {
                    return null;
                }
                boolean text = member.equals("stringValue") || member.equals("string_value");
                if (in.peek() == '"') {
                    String v = in.string();
                    if (v == null) {
                        return null;
                    }
                    if (text) {
                        out.add(new String[] {key, v});
                    }
                } else if (!in.scalar(text)) {
                    return null; // an array, a key-value list or not JSON: the parser reads it
                }
            } while (in.take(','));
            if (!in.take("}}")) {
                return null;
            }
        } while (in.take(','));
        return in.take(']') && in.atEnd() ? out : null;
    }

    private static final String[] NULL_ONLY = {"null"};
    private static final String[] LITERALS = {"null", "true", "false"};

    /** A position in canonical attribute text (see {@link #scanned}). */
    private static final class Scan {
        private final String s;
        private int at;

        Scan(String s) {
            this.s = s;
        }

        boolean atEnd() {
            return at == s.length();
        }

        char peek() {
            return at < s.length() ? s.charAt(at) : 0;
        }

        boolean take(char c) {
            if (peek() != c) {
                return false;
            }
            at++;
            return true;
        }

        boolean take(String literal) {
            if (!s.startsWith(literal, at)) {
                return false;
            }
            at += literal.length();
            return true;
        }

        /** A string without escapes (the text has no backslash), or null: not a string, or a control character. */
        String string() {
            if (!take('"')) {
                return null;
            }
            int end = s.indexOf('"', at);
            if (end < 0) {
                return null;
            }
            for (int i = at; i < end; i++) {
                if (s.charAt(i) < 0x20) {
                    return null;
                }
            }
            String v = s.substring(at, end);
            at = end + 1;
            return v;
        }

        /**
         * A literal or a number as JSON writes them (false: anything else, an object or array among it). For a
         * string member ({@code text}), only {@code null} (no string) is accepted, as the parser's reading does.
         */
        boolean scalar(boolean text) {
            for (String literal : text ? NULL_ONLY : LITERALS) {
                if (take(literal)) {
                    return true;
                }
            }
            if (text) {
                return false;
            }
            int start = at;
            take('-');
            if (take('0')) {
                // no digit may follow a leading zero
            } else if (digits() == 0) {
                return false;
            }
            if (take('.') && digits() == 0) {
                return false;
            }
            if (take('e') || take('E')) {
                if (!take('+')) {
                    take('-');
                }
                if (digits() == 0) {
                    return false;
                }
            }
            char next = peek();
            return at > start && (next == ',' || next == '}');
        }

        private int digits() {
            int start = at;
            while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') {
                at++;
            }
            return at - start;
        }
    }

    /** The pairs of a canonical array, or null when the text is anything else. */
    static List<String[]> fast(String json) {
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
