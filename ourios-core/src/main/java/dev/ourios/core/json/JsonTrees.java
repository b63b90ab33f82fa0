package dev.ourios.core.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads exactly one JSON value into a tree, for OTLP/JSON and the canonical attribute JSON.
 *
 * <p>Jackson's own {@code readTree} does not fit, for two reasons this class exists to fix:
 * <ul>
 *   <li>Numbers with a fraction or exponent must become {@link java.math.BigDecimal}s so that a timestamp written
 *       as {@code 1.5e18} is exact or rejected, never rounded; but a BigDecimal has no negative zero, so
 *       {@code -0.0} in a double attribute would come back as {@code 0.0}. Here a negative zero (either spelling,
 *       {@code -0} or {@code -0.0e5}) becomes the double {@code -0.0}; every other number is kept exact.</li>
 *   <li>{@code readTree} stops after the first value and ignores what follows, so a second document on one line
 *       was silently dropped. Here anything after the value other than whitespace is an error.</li>
 * </ul>
 */
public final class JsonTrees {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    private JsonTrees() {
    }

    /** One JSON value and nothing else; errors are {@link JsonPathException}s on the document as a whole. */
    public static JsonNode readOne(String json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            return readOne(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a String source does not fail
        }
    }

    /**
     * One JSON value and nothing else, from a parser the caller made over its source (and closes); malformed
     * JSON is a {@link JsonPathException} on the document as a whole, a failure of the source an IOException.
     */
    public static JsonNode readOne(JsonParser p) throws IOException {
        JsonNode root;
        try {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new JsonPathException("", "malformed JSON: no content");
            }
            root = value(p, first);
        } catch (JsonProcessingException e) {
            throw malformed(e);
        }
        JsonToken next;
        try {
            next = p.nextToken();
        } catch (JsonProcessingException e) {
            throw new JsonPathException("", "trailing content after the JSON document (column "
                    + p.currentLocation().getColumnNr() + ")", e);
        }
        if (next == JsonToken.START_OBJECT || next == JsonToken.START_ARRAY) {
            throw new JsonPathException("", "more than one JSON document (the second starts at column "
                    + p.currentTokenLocation().getColumnNr() + "; put one document per line)");
        }
        if (next != null) {
            throw new JsonPathException("", "trailing content after the JSON document (column "
                    + p.currentTokenLocation().getColumnNr() + ")");
        }
        return root;
    }

    /** The value starting at the parser's current token, read by the rules above (exact numbers, -0.0 kept). */
    public static JsonNode readValue(JsonParser p) throws IOException {
        return value(p, p.currentToken());
    }

    /**
     * True if {@code text} is the beginning of a JSON value that ends only after the text does (the first line of
     * a pretty-printed document, {@code "{"}); false if a value completes within it or it is not JSON at all.
     */
    public static boolean endsInsideAValue(String text) {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return false;
            }
            p.skipChildren();
            return false;
        } catch (com.fasterxml.jackson.core.io.JsonEOFException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Malformed JSON, as every reader here reports it. */
    public static JsonPathException malformed(JsonProcessingException e) {
        return new JsonPathException("", "malformed JSON: " + e.getOriginalMessage(), e);
    }

    /** Recursion depth is bounded by the parser's nesting limit (StreamReadConstraints, 1000 by default). */
    private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT: {
                ObjectNode o = NODES.objectNode();
                for (JsonToken n = p.nextToken(); n != JsonToken.END_OBJECT; n = p.nextToken()) {
                    String name = p.currentName();
                    o.set(name, value(p, p.nextToken()));
                }
                return o;
            }
            case START_ARRAY: {
                ArrayNode a = NODES.arrayNode();
                for (JsonToken n = p.nextToken(); n != JsonToken.END_ARRAY; n = p.nextToken()) {
                    a.add(value(p, n));
                }
                return a;
            }
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            case VALUE_NUMBER_INT:
                if (isNegativeZero(p, p.getNumberType() == JsonParser.NumberType.INT && p.getIntValue() == 0)) {
                    return NODES.numberNode(-0.0d);
                }
                return switch (p.getNumberType()) {
                    case INT -> NODES.numberNode(p.getIntValue());
                    case LONG -> NODES.numberNode(p.getLongValue());
                    default -> NODES.numberNode(p.getBigIntegerValue());
                };
            case VALUE_NUMBER_FLOAT: {
                java.math.BigDecimal d;
                try {
                    d = p.getDecimalValue();
                } catch (NumberFormatException e) {
                    // An exponent beyond BigDecimal's int scale (9e99999999999) is valid JSON but no number.
                    throw new JsonPathException("", "number out of range: " + abbreviated(p.getText())
                            + " (column " + p.currentTokenLocation().getColumnNr() + ")", e);
                }
                if (isNegativeZero(p, d.signum() == 0)) {
                    return NODES.numberNode(-0.0d);
                }
                return NODES.numberNode(d);
            }
            default:
                throw new JsonPathException("", "malformed JSON: unexpected " + t);
        }
    }

    private static String abbreviated(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }

    private static boolean isNegativeZero(JsonParser p, boolean zero) throws IOException {
        return zero && p.getTextLength() > 0 && p.getTextCharacters()[p.getTextOffset()] == '-';
    }
}
