package dev.ourios.core.json;

import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * The OTLP {@code AnyValue} (opentelemetry-proto {@code common.proto}): exactly one of string, bool, int64, double,
 * bytes, array or key-value list, or nothing at all ({@link EmptyValue}, a value whose oneof is unset).
 */
public sealed interface AnyValue {

    static AnyValue of(String v) {
        return new StringValue(v);
    }

    static AnyValue of(long v) {
        return new IntValue(v);
    }

    static AnyValue of(boolean v) {
        return new BoolValue(v);
    }

    static AnyValue of(double v) {
        return new DoubleValue(v);
    }

    record StringValue(String value) implements AnyValue {
        public StringValue {
            Objects.requireNonNull(value, "value");
        }
    }

    record BoolValue(boolean value) implements AnyValue {
    }

    record IntValue(long value) implements AnyValue {
    }

    /** Record equality compares with {@link Double#compare}, so NaN equals NaN and 0.0 differs from -0.0. */
    record DoubleValue(double value) implements AnyValue {
    }

    record BytesValue(byte[] value) implements AnyValue {
        public BytesValue {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BytesValue b && Arrays.equals(b.value, value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "BytesValue[" + Base64.getEncoder().encodeToString(value) + "]";
        }
    }

    record ArrayValue(List<AnyValue> values) implements AnyValue {
        public ArrayValue {
            values = List.copyOf(values);
        }
    }

    record KvListValue(List<KeyValue> values) implements AnyValue {
        public KvListValue {
            values = List.copyOf(values);
        }
    }

    /** An AnyValue with no member set; proto3 JSON writes it as {@code {}}. */
    record EmptyValue() implements AnyValue {
    }
}
