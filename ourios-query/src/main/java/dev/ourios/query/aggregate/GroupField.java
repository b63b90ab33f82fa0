package dev.ourios.query.aggregate;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.json.AnyValue;
import dev.ourios.core.json.AttributesJson;
import dev.ourios.core.json.KeyValue;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A field rows are grouped or counted by: {@code severity} (by OpenTelemetry range name), {@code service},
 * {@code scope}, {@code attributes.<key>} or {@code resource.<key>} (the key as OpenTelemetry writes it, dots and
 * all). A row's value is a string, or null when the row has none.
 *
 * @param name the field as written
 * @param kind which part of the row it reads
 * @param key  the attribute key (attributes and resource only, else empty)
 */
public record GroupField(String name, Kind kind, String key) {
    /** The part of a row a field reads. */
    public enum Kind {
        SEVERITY, SERVICE, SCOPE, ATTRIBUTE, RESOURCE
    }

    /** The names a field may take, for error messages. */
    public static final String KNOWN = "severity, service, scope, attributes.<key>, resource.<key>";
    private static final int MAX_NAME = 256;
    private static final String SERVICE_KEY = "service.name";
    private static final List<String> SEVERITY_RANGES = List.of("trace", "debug", "info", "warn", "error", "fatal");

    public GroupField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
    }

    /** The field named {@code name}; an unknown name throws with the names known. */
    public static GroupField parse(String name) {
        Objects.requireNonNull(name, "name");
        if (name.length() > MAX_NAME) {
            throw new IllegalArgumentException("a field name is at most " + MAX_NAME + " characters");
        }
        switch (name) {
            case "severity":
                return new GroupField(name, Kind.SEVERITY, "");
            case "service":
                return new GroupField(name, Kind.SERVICE, "");
            case "scope":
                return new GroupField(name, Kind.SCOPE, "");
            default:
                break;
        }
        if (name.startsWith("attributes.") && name.length() > "attributes.".length()) {
            return new GroupField(name, Kind.ATTRIBUTE, name.substring("attributes.".length()));
        }
        if (name.startsWith("resource.") && name.length() > "resource.".length()) {
            return new GroupField(name, Kind.RESOURCE, name.substring("resource.".length()));
        }
        throw new IllegalArgumentException("unknown field '" + name + "' (known: " + KNOWN + ")");
    }

    /** The columns {@link #valueOf} reads (top-level column names). */
    public Set<String> columns() {
        return switch (kind) {
            case SEVERITY -> Set.of(Columns.SEVERITY_NUMBER);
            case SERVICE -> Set.of(Columns.SERVICE_NAME, Columns.RESOURCE_ATTRIBUTES);
            case SCOPE -> Set.of(Columns.SCOPE_NAME);
            case ATTRIBUTE -> Set.of(Columns.ATTRIBUTES);
            case RESOURCE -> Set.of(Columns.RESOURCE_ATTRIBUTES);
        };
    }

    /** The row's value of this field as text, or null when it has none. */
    public String valueOf(LogRecord row) {
        return switch (kind) {
            case SEVERITY -> severityRange(row.severityNumber());
            case SERVICE -> row.serviceName() != null ? row.serviceName()
                    : AttributesJson.firstString(row.resourceAttributes(), SERVICE_KEY).orElse(null);
            case SCOPE -> row.scopeName();
            case ATTRIBUTE -> first(AttributesJson.decode(row.attributes()), key).orElse(null);
            case RESOURCE -> first(AttributesJson.decode(row.resourceAttributes()), key).orElse(null);
        };
    }

    /**
     * The OpenTelemetry range name of a severity number: 1-4 trace, 5-8 debug, 9-12 info, 13-16 warn, 17-20 error,
     * 21-24 fatal; anything else (0 = unspecified) is null.
     */
    public static String severityRange(int severityNumber) {
        if (severityNumber < 1 || severityNumber > 24) {
            return null;
        }
        return SEVERITY_RANGES.get((severityNumber - 1) / 4);
    }

    private static Optional<String> first(List<KeyValue> attributes, String key) {
        for (KeyValue kv : attributes) {
            if (kv.key().equals(key)) {
                return Optional.of(text(kv.value()));
            }
        }
        return Optional.empty();
    }

    /** A value as the search language writes it: strings as they are, numbers and booleans in their JSON form. */
    static String text(AnyValue v) {
        if (v instanceof AnyValue.StringValue s) {
            return s.value();
        }
        if (v instanceof AnyValue.IntValue i) {
            return Long.toString(i.value());
        }
        if (v instanceof AnyValue.BoolValue b) {
            return Boolean.toString(b.value());
        }
        if (v instanceof AnyValue.DoubleValue d) {
            return Double.toString(d.value());
        }
        return AttributesJson.encodeValue(v);
    }
}
