package dev.ourios.otlp;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What a client reads when its OTLP/JSON body cannot be decoded: one line of a few hundred characters at most that
 * says what is wrong in the request's terms, never the offending value whole and never a library's class or method.
 */
class OtlpCodecMessagesTest {
    /** A library class or method: {@code StreamReadConstraints.getMaxNestingDepth()}, {@code com.fasterxml…}. */
    private static final Pattern LIBRARY = Pattern.compile(
            "[A-Z][A-Za-z]+\\.[a-z][A-Za-z]+\\(\\)|com\\.fasterxml|com\\.google|jackson|Jackson|protobuf|"
            + "JsonFormat|InvalidProtocolBuffer|`[a-z]+\\.[a-z]+");
    private final OtlpCodec codec = new OtlpCodec();

    @Test
    void refusals_are_bounded_and_name_no_library() {
        String big = "z".repeat(100_000);
        List<String> bodies = List.of(
                "[".repeat(5_000) + "]".repeat(5_000),
                "{\"resourceLogs\":" + "[".repeat(2_000),
                "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"traceId\":\"" + big + "\"}]}]}]}",
                "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"flags\":\"" + big + "\"}]}]}]}",
                "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"" + big + "\"}]}]}]}",
                "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":" + big + "}}]}]}]}",
                "{\"resourceLogs\":" + big + "}",
                "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"flags\":-1.5e999}]}]}]}",
                "{\"resourceLogs\":{}}",
                "{\"resourceLogs\":[1]}",
                "{\"a\":\"" + "\\u00".repeat(10) + "\"}");
        for (String body : bodies) {
            UndecodableException e = assertThrows(UndecodableException.class,
                    () -> codec.parseJson(body.getBytes(StandardCharsets.UTF_8)), shortened(body));
            String m = e.getMessage();
            assertTrue(m.length() <= OtlpCodec.MAX_MESSAGE_CHARS, m.length() + ": " + shortened(m));
            assertTrue(!LIBRARY.matcher(m).find(), "names a library: " + m);
            assertTrue(!m.contains("\n"), m);
        }
    }

    private static String shortened(String s) {
        return s.length() < 200 ? s : s.substring(0, 200) + "…";
    }
}
