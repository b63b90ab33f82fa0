package dev.ourios.core.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The canonical JSON of the {@code attributes}, {@code resource_attributes} and {@code scope_attributes} columns,
 * and of structured bodies: OTLP proto3 JSON, compact, lowerCamelCase members, key order and duplicates preserved.
 *
 * <pre>[{"key":"service.name","value":{"stringValue":"api"}},{"key":"n","value":{"intValue":"42"}}]</pre>
 *
 * <p>Canonical means one spelling per value, so equal attribute lists give byte-equal cells (dictionary encoding
 * and checksums depend on that): ints are decimal strings, bytes are padded standard base64, doubles are JSON
 * numbers except NaN/Infinity/-Infinity, which proto3 JSON spells as strings; an empty list is {@code []}.
 * Parsing is lenient in what proto3 JSON allows (ints as numbers or strings, base64 with or without padding,
 * URL-safe base64) and strict about everything else, with the JSON path of the fault in the error.
 */
public final class AttributesJson {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final Set<String> VALUE_MEMBERS = Set.of("stringValue", "string_value", "boolValue", "bool_value",
            "intValue", "int_value", "doubleValue", "double_value", "bytesValue", "bytes_value", "arrayValue",
            "array_value", "kvlistValue", "kvlist_value");

    public static final String EMPTY = "[]";

    private AttributesJson() {
    }

    // ---------------------------------------------------------------- encoding

    /** The canonical JSON of an attribute list. */
    public static String encode(List<KeyValue> attributes) {
        if (attributes.isEmpty()) {
            return EMPTY;
        }
        return write(g -> writeKeyValues(g, attributes));
    }

    /** The canonical proto3 JSON of one AnyValue, e.g. {@code {"kvlistValue":{"values":[…]}}} (body_kind 1). */
    public static String encodeValue(AnyValue value) {
        return write(g -> writeValue(g, value));
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static String write(Body body) {
        StringWriter out = new StringWriter(64);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void writeKeyValues(JsonGenerator g, List<KeyValue> kvs) throws IOException {
        g.writeStartArray();
        for (KeyValue kv : kvs) {
            g.writeStartObject();
            g.writeStringField("key", kv.key());
            g.writeFieldName("value");
            writeValue(g, kv.value());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void writeValue(JsonGenerator g, AnyValue v) throws IOException {
        g.writeStartObject();
        if (v instanceof AnyValue.StringValue s) {
            g.writeStringField("stringValue", s.value());
        } else if (v instanceof AnyValue.BoolValue b) {
            g.writeBooleanField("boolValue", b.value());
        } else if (v instanceof AnyValue.IntValue i) {
            g.writeStringField("intValue", Long.toString(i.value()));
        } else if (v instanceof AnyValue.DoubleValue d) {
            g.writeFieldName("doubleValue");
            writeDouble(g, d.value());
        } else if (v instanceof AnyValue.BytesValue b) {
            g.writeStringField("bytesValue", Base64.getEncoder().encodeToString(b.value()));
        } else if (v instanceof AnyValue.ArrayValue a) {
            g.writeFieldName("arrayValue");
            g.writeStartObject();
            g.writeFieldName("values");
            g.writeStartArray();
            for (AnyValue e : a.values()) {
                writeValue(g, e);
            }
            g.writeEndArray();
            g.writeEndObject();
        } else if (v instanceof AnyValue.KvListValue kv) {
            g.writeFieldName("kvlistValue");
            g.writeStartObject();
            g.writeFieldName("values");
            writeKeyValues(g, kv.values());
            g.writeEndObject();
        } else if (!(v instanceof AnyValue.EmptyValue)) {
            throw new IllegalStateException("unknown AnyValue " + v);
        }
        g.writeEndObject();
    }

    private static void writeDouble(JsonGenerator g, double d) throws IOException {
        if (Double.isNaN(d)) {
            g.writeString("NaN");
        } else if (Double.isInfinite(d)) {
            g.writeString(d > 0 ? "Infinity" : "-Infinity");
        } else {
            g.writeNumber(d);
        }
    }

    // ---------------------------------------------------------------- parsing

    /** Canonicalises an OTLP/JSON attribute array (null or missing = empty). */
    public static String canonicalise(JsonNode attributes) {
        return encode(parse(attributes, "attributes"));
    }

    /** Canonicalises OTLP/JSON attribute-array text. */
    public static String canonicalise(String attributesJson) {
        return encode(decode(attributesJson));
    }

    /** Parses attribute-array text (canonical or any OTLP/JSON spelling) back into key-values. */
    public static List<KeyValue> decode(String attributesJson) {
        return parse(readTree(attributesJson, "attributes"), "attributes");
    }

    /** Parses the proto3 JSON of one AnyValue. */
    public static AnyValue decodeValue(String anyValueJson) {
        return parseValue(readTree(anyValueJson, "value"), "value");
    }

    private static JsonNode readTree(String json, String path) {
        try {
            return JsonTrees.readOne(json);
        } catch (JsonPathException e) {
            throw new JsonPathException(path, e.problem(), e);
        }
    }

    /** Parses an OTLP/JSON attribute array; {@code path} names it in errors. Null or missing means empty. */
    public static List<KeyValue> parse(JsonNode attributes, String path) {
        if (attributes == null || attributes.isNull() || attributes.isMissingNode()) {
            return List.of();
        }
        if (!attributes.isArray()) {
            throw new JsonPathException(path, "expected an array of key-values, got " + attributes.getNodeType());
        }
        List<KeyValue> out = new ArrayList<>(attributes.size());
        for (int i = 0; i < attributes.size(); i++) {
            out.add(parseKeyValue(attributes.get(i), path + "[" + i + "]"));
        }
        return out;
    }

    private static KeyValue parseKeyValue(JsonNode kv, String path) {
        if (!kv.isObject()) {
            throw new JsonPathException(path, "expected a key-value object, got " + kv.getNodeType());
        }
        JsonNode key = kv.get("key");
        if (key == null || key.isNull()) {
            // proto3 JSON leaves out a string field at its default: an absent key is the empty key, as in protobuf.
            return new KeyValue("", parseValue(kv.get("value"), path + ".value"));
        }
        if (!key.isTextual()) {
            throw new JsonPathException(path + ".key", "expected a string key");
        }
        return new KeyValue(key.textValue(), parseValue(kv.get("value"), path + ".value"));
    }

    /** Parses one OTLP/JSON AnyValue object; null or missing is the empty value. */
    public static AnyValue parseValue(JsonNode node, String path) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return new AnyValue.EmptyValue();
        }
        if (!node.isObject()) {
            throw new JsonPathException(path, "expected an AnyValue object, got " + node.getNodeType());
        }
        AnyValue result = null;
        String member = null;
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (e.getValue().isNull()) {
                continue; // proto3 JSON: null means "not set"
            }
            AnyValue v = parseMember(e.getKey(), e.getValue(), path + "." + e.getKey());
            if (v == null) {
                continue; // unknown member: tolerated, as proto3 JSON parsers may ignore unknown fields
            }
            if (result != null) {
                throw new JsonPathException(path, "more than one value set (" + member + ", " + e.getKey() + ")");
            }
            result = v;
            member = e.getKey();
        }
        return result == null ? new AnyValue.EmptyValue() : result;
    }

    private static AnyValue parseMember(String name, JsonNode v, String path) {
        switch (name) {
            case "stringValue", "string_value": {
                if (!v.isTextual()) {
                    throw new JsonPathException(path, "expected a string, got " + v.getNodeType());
                }
                return new AnyValue.StringValue(v.textValue());
            }
            case "boolValue", "bool_value": {
                if (!v.isBoolean()) {
                    throw new JsonPathException(path, "expected true or false, got " + v.getNodeType());
                }
                return new AnyValue.BoolValue(v.booleanValue());
            }
            case "intValue", "int_value":
                return new AnyValue.IntValue(JsonNumbers.int64(v, path));
            case "stringValueStrindex", "string_value_strindex":
                // An index into a profiles dictionary: meaningless in logs, refused as the OTLP receiver refuses it.
                throw new JsonPathException(path, "string_value_strindex is not allowed in logs");
            case "doubleValue", "double_value":
                return new AnyValue.DoubleValue(parseDouble(v, path));
            case "bytesValue", "bytes_value":
                return new AnyValue.BytesValue(parseBase64(v, path));
            case "arrayValue", "array_value": {
                JsonNode values = container(v, path).get("values");
                List<AnyValue> out = new ArrayList<>();
                if (values != null && !values.isNull()) {
                    if (!values.isArray()) {
                        throw new JsonPathException(path + ".values", "expected an array");
                    }
                    for (int i = 0; i < values.size(); i++) {
                        out.add(parseValue(values.get(i), path + ".values[" + i + "]"));
                    }
                }
                return new AnyValue.ArrayValue(out);
            }
            case "kvlistValue", "kvlist_value":
                return new AnyValue.KvListValue(parse(container(v, path).get("values"), path + ".values"));
            default:
                return null;
        }
    }

    private static JsonNode container(JsonNode v, String path) {
        if (!v.isObject()) {
            throw new JsonPathException(path, "expected an object with 'values', got " + v.getNodeType());
        }
        return v;
    }

    private static double parseDouble(JsonNode v, String path) {
        if (v.isNumber()) {
            return v.doubleValue(); // JsonTrees keeps -0.0 as a double; other numbers are exact BigDecimals
        }
        if (v.isTextual()) {
            switch (v.textValue()) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    try {
                        // Double.parseDouble alone would also take "NaN" spellings, hex floats and a trailing 'd';
                        // the BigDecimal restricts to decimals, Double.parseDouble keeps the sign of -0.0.
                        String s = v.textValue().trim();
                        new java.math.BigDecimal(s);
                        return Double.parseDouble(s);
                    } catch (NumberFormatException e) {
                        throw new JsonPathException(path, "'" + v.textValue() + "' is not a number", e);
                    }
            }
        }
        throw new JsonPathException(path, "expected a number, got " + v.getNodeType());
    }

    private static byte[] parseBase64(JsonNode v, String path) {
        if (!v.isTextual()) {
            throw new JsonPathException(path, "expected a base64 string, got " + v.getNodeType());
        }
        String s = v.textValue();
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException standard) {
            try {
                return Base64.getUrlDecoder().decode(s);
            } catch (IllegalArgumentException e) {
                throw new JsonPathException(path, "invalid base64: " + e.getMessage(), e);
            }
        }
    }

    // ---------------------------------------------------------------- lookup

    /** The first occurrence of {@code key} in a parsed list, if its value is a string. */
    public static Optional<String> firstString(List<KeyValue> attributes, String key) {
        for (KeyValue kv : attributes) {
            if (kv.key().equals(key)) {
                return kv.value() instanceof AnyValue.StringValue s ? Optional.of(s.value()) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * The value of the first occurrence of {@code key} in attribute-array JSON, only if that value is a
     * {@code stringValue} (a later string occurrence does not count: the promoted-column rule is "first
     * occurrence"). A streaming scan that stops at the first matching key and skips the values of other keys
     * without building them, so deriving {@code resource.service.name} per row stays cheap ({@code service.name}
     * is usually the first key). Malformed JSON is an {@link IllegalArgumentException}.
     */
    public static Optional<String> firstString(String attributesJson, String key) {
        try (JsonParser p = FACTORY.createParser(attributesJson)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw new IllegalArgumentException("attributes JSON is not an array");
            }
            while (p.nextToken() == JsonToken.START_OBJECT) {
                String k = null;
                boolean matched = false;
                String stringValue = null;
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken t = p.nextToken();
                    if (field.equals("key") && t == JsonToken.VALUE_STRING) {
                        k = p.getText();
                        matched = k.equals(key);
                    } else if (field.equals("value") && t == JsonToken.START_OBJECT && (k == null || matched)) {
                        // Only build the value when the key is ours (or not seen yet: members may come in any order).
                        stringValue = scanStringValue(p);
                    } else {
                        p.skipChildren();
                    }
                }
                if (matched) {
                    return Optional.ofNullable(stringValue);
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed attributes JSON: " + e.getMessage(), e);
        }
    }

    /** Inside an AnyValue object: the stringValue member if that is what it holds, else null. */
    private static String scanStringValue(JsonParser p) throws IOException {
        String s = null;
        boolean other = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if ((field.equals("stringValue") || field.equals("string_value")) && t == JsonToken.VALUE_STRING) {
                s = p.getText();
            } else {
                if (t != JsonToken.VALUE_NULL && VALUE_MEMBERS.contains(field)) {
                    other = true; // unknown members are ignored, as parseValue ignores them
                }
                p.skipChildren();
            }
        }
        return other ? null : s;
    }
}
