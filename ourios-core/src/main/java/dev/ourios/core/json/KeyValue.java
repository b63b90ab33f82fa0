package dev.ourios.core.json;

import java.util.Objects;

/** One OTLP attribute: a key and its value. Keys may repeat in a list; order is significant and preserved. */
public record KeyValue(String key, AnyValue value) {
    public KeyValue {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    public static KeyValue of(String key, String value) {
        return new KeyValue(key, AnyValue.of(value));
    }

    public static KeyValue of(String key, long value) {
        return new KeyValue(key, AnyValue.of(value));
    }

    public static KeyValue of(String key, boolean value) {
        return new KeyValue(key, AnyValue.of(value));
    }
}
