package dev.ourios.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ourios.core.json.JsonNumbers;
import dev.ourios.core.json.JsonPathException;
import java.math.BigInteger;

/**
 * OTLP {@code SeverityNumber} in JSON: a number up to {@link OtlpRows#MAX_SEVERITY} (an open proto3 enum; OpenTelemetry
 * names 0..24) or, as proto3 JSON allows for enums, its name.
 */
final class Severity {
    private static final String[] BANDS = {"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"};

    private Severity() {
    }

    static int parse(JsonNode node, String path) {
        if (node.isTextual() && node.textValue().startsWith("SEVERITY_NUMBER_")) {
            return byName(node.textValue(), path);
        }
        BigInteger v = JsonNumbers.integral(node, path);
        if (v.signum() < 0 || v.compareTo(BigInteger.valueOf(OtlpRows.MAX_SEVERITY)) > 0) {
            throw new JsonPathException(path, "value " + v + " is outside the severity range 0.."
                    + OtlpRows.MAX_SEVERITY);
        }
        return v.intValue();
    }

    private static int byName(String name, String path) {
        String rest = name.substring("SEVERITY_NUMBER_".length());
        if (rest.equals("UNSPECIFIED")) {
            return 0;
        }
        for (int band = 0; band < BANDS.length; band++) {
            if (rest.equals(BANDS[band])) {
                return band * 4 + 1;
            }
            for (int n = 2; n <= 4; n++) {
                if (rest.equals(BANDS[band] + n)) {
                    return band * 4 + n;
                }
            }
        }
        throw new JsonPathException(path, "unknown severity '" + name + "'");
    }
}
