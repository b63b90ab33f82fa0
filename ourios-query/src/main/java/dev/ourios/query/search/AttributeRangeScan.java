package dev.ourios.query.search;

import java.util.regex.Pattern;

/**
 * Decides a numeric range on one attribute key ({@code attributes.k:>=N}) from the attributes JSON text, without
 * parsing it into values, when the text is the canonical form rows are stored in and holds no backslash:
 * {@code [{"key":"k","value":{"intValue":"42"}},…]}, no white space, each value object one member. Without a
 * backslash the text has no escapes, so every string stands in it literally, and a key absent from the text is absent
 * from the row. The entries of the key are read in place (an int's digits, a double's number); the other entries'
 * values are skipped by their brackets. Whatever else the text holds (an escape, another layout, an array value of
 * the key, a number out of range) makes the answer {@link #UNKNOWN}: the caller parses the row. On JSON the parser
 * accepts, a known answer is the parser's.
 */
final class AttributeRangeScan {
    static final int NO = 0;
    static final int YES = 1;
    static final int UNKNOWN = 2;

    /** A JSON number (RFC 8259). */
    private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]*)");
    private static final String ENTRY = "{\"key\":\"";
    private static final String VALUE = "\",\"value\":{";

    private final String key;
    private final String quotedKey;
    private final NumericBounds bounds;

    AttributeRangeScan(String key, NumericBounds bounds) {
        this.key = key;
        this.quotedKey = '"' + key + '"';
        this.bounds = bounds;
    }

    /** {@link #YES} or {@link #NO} when the text decides whether some value of the key is in the range. */
    int decide(String json) {
        if (json == null || json.indexOf('\\') >= 0) {
            return UNKNOWN;
        }
        if (!json.contains(quotedKey)) {
            return NO; // no escapes: the key would stand in the text
        }
        int n = json.length();
        if (n < 2 || json.charAt(0) != '[') {
            return UNKNOWN;
        }
        int at = 1;
        if (json.charAt(at) == ']') {
            return at + 1 == n ? NO : UNKNOWN;
        }
        boolean found = false;
        while (true) {
            if (!json.startsWith(ENTRY, at)) {
                return UNKNOWN;
            }
            int keyStart = at + ENTRY.length();
            int keyEnd = json.indexOf('"', keyStart);
            if (keyEnd < 0 || !json.startsWith(VALUE, keyEnd)) {
                return UNKNOWN;
            }
            int valueStart = keyEnd + VALUE.length() - 1; // the value object's '{'
            int valueEnd = skip(json, valueStart);
            if (valueEnd < 0) {
                return UNKNOWN;
            }
            if (keyEnd - keyStart == key.length() && json.startsWith(key, keyStart)) {
                int v = value(json.substring(valueStart + 1, valueEnd - 1));
                if (v == UNKNOWN) {
                    return UNKNOWN;
                }
                found |= v == YES;
            }
            if (valueEnd >= n || json.charAt(valueEnd) != '}') {
                return UNKNOWN;
            }
            at = valueEnd + 1;
            if (at < n && json.charAt(at) == ',') {
                at++;
            } else if (at + 1 == n && json.charAt(at) == ']') {
                return found ? YES : NO;
            } else {
                return UNKNOWN;
            }
        }
    }

    /**
     * Whether the value object whose members are {@code body} (without its braces) is a number in the range;
     * UNKNOWN for what is not read here.
     */
    private int value(String body) {
        if (body.isEmpty()) {
            return NO; // the empty value
        }
        int colon = body.indexOf(':');
        if (colon < 2 || body.charAt(0) != '"' || body.charAt(colon - 1) != '"') {
            return UNKNOWN;
        }
        String member = body.substring(1, colon - 1);
        String value = body.substring(colon + 1);
        switch (member) {
            case "intValue", "int_value": {
                if (value.length() < 3 || value.length() > 22 || value.charAt(0) != '"'
                        || value.charAt(value.length() - 1) != '"') {
                    return UNKNOWN;
                }
                String digits = value.substring(1, value.length() - 1);
                if (!INTEGER.matcher(digits).matches()) {
                    return UNKNOWN;
                }
                try {
                    return bounds.test(Long.parseLong(digits)) ? YES : NO;
                } catch (NumberFormatException e) {
                    return UNKNOWN; // beyond 64 bits: the parser says what it is
                }
            }
            case "doubleValue", "double_value": {
                if (!JSON_NUMBER.matcher(value).matches()) {
                    return UNKNOWN; // NaN and infinities are strings; NaN compares with nothing, but let the parser say
                }
                return bounds.test(Double.parseDouble(value)) ? YES : NO;
            }
            case "stringValue", "string_value", "boolValue", "bool_value", "bytesValue", "bytes_value",
                    "kvlistValue", "kvlist_value":
                // never in a numeric range; one member only (the parser refuses two values)
                return skipValue(value) ? NO : UNKNOWN;
            default:
                return UNKNOWN; // arrays (their elements count), unknown members
        }
    }

    /** Whether {@code value} is exactly one JSON string, literal, or bracketed value. */
    private static boolean skipValue(String value) {
        if (value.isEmpty()) {
            return false;
        }
        char c = value.charAt(0);
        if (c == '"') {
            return value.indexOf('"', 1) == value.length() - 1;
        }
        if (c == '{' || c == '[') {
            return skip(value, 0) == value.length();
        }
        return value.equals("true") || value.equals("false");
    }

    /**
     * The index after the bracketed value that opens at {@code open} (strings skipped whole: the text has no escapes),
     * or -1 when it does not close.
     */
    private static int skip(String json, int open) {
        int depth = 0;
        for (int i = open, n = json.length(); i < n; i++) {
            char c = json.charAt(i);
            if (c == '"') {
                i = json.indexOf('"', i + 1);
                if (i < 0) {
                    return -1;
                }
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    return i + 1;
                }
            }
        }
        return -1;
    }
}
