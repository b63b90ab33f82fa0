package dev.ourios.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ourios.core.json.JsonPathException;

/** Trace and span ids in OTLP/JSON: hex strings (OTLP deviates from proto3's base64 here), either case. */
final class HexId {
    private HexId() {
    }

    /** The id's bytes; null for an absent or empty id (proto3 "unset"). */
    static byte[] parse(JsonNode node, int length, String path) {
        if (node == null) {
            return null;
        }
        if (!node.isTextual()) {
            throw new JsonPathException(path, "expected a hex string, got " + node.getNodeType());
        }
        String s = node.textValue();
        if (s.isEmpty()) {
            return null;
        }
        if (s.length() != 2 * length) {
            throw new JsonPathException(path, "expected " + 2 * length + " hex digits (" + length + " bytes), got "
                    + s.length() + " characters");
        }
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            int hi = Character.digit(s.charAt(2 * i), 16);
            int lo = Character.digit(s.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0 || s.charAt(2 * i) > 'f' || s.charAt(2 * i + 1) > 'f') {
                throw new JsonPathException(path, "'" + s + "' is not hex");
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }
}
