package dev.ourios.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.core.json.JsonPathException;
import dev.ourios.testkit.Testdata;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Both input shapes stream piece by piece, and every refusal names its line. */
class OtlpJsonStreamTest {
    private static final String ONE = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"1\"}]}]}]}";
    private static final String TWO = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"2\"},"
            + "{\"timeUnixNano\":\"3\"}]}]}]}";

    private record Piece(int records, long line) {
    }

    private static List<Piece> read(String text) throws IOException {
        List<Piece> out = new ArrayList<>();
        OtlpJsonStream.read("t", new StringReader(text), (records, line) -> out.add(new Piece(records.size(), line)));
        return out;
    }

    private static String refusal(String text) {
        return assertThrows(JsonPathException.class, () -> read(text)).getMessage();
    }

    @Test
    void linesArriveOneAtATimeWithTheirNumbers() throws IOException {
        assertEquals(List.of(new Piece(1, 2), new Piece(2, 4)), read("\n" + ONE + "\n  \n" + TWO + "\n"));
        assertEquals(List.of(new Piece(1, 1)), read(ONE)); // no final newline
        assertEquals(List.of(), read("\n\n"));
        assertEquals(List.of(), read(""));
    }

    @Test
    void aPrettyPrintedDocumentStreamsByResourceLogsElement() throws IOException {
        String pretty = Files.readString(Testdata.file("otlp", "opentelemetry-proto-example-logs.json"));
        List<Piece> pieces = read("\n" + pretty);
        assertEquals(1, pieces.size());
        assertEquals(1, pieces.get(0).records());
        assertEquals(4, pieces.get(0).line(), "the element starts on line 3 of the file, after one blank line");
        List<LogRecord> viaStream = new ArrayList<>();
        OtlpJsonStream.read("t", new StringReader(pretty), (records, line) -> viaStream.addAll(records));
        assertEquals(OtlpJsonDecoder.decode("t", pretty), viaStream);
        String twoElements = "{\n\"resourceLogs\": [\n" + ONE.substring(17, ONE.length() - 2) + ",\n"
                + TWO.substring(17, TWO.length() - 2) + "\n],\n\"other\": {\"x\": [1]}\n}\n";
        assertEquals(List.of(new Piece(1, 3), new Piece(2, 4)), read(twoElements));
    }

    @Test
    void aSecondDocumentOnALineIsRefusedWithItsLine() {
        String m = refusal(ONE + "\n" + ONE + TWO + "\n");
        assertTrue(m.startsWith("line 2: more than one JSON document"), m);
        m = refusal(ONE + "\n" + ONE + " " + ONE + "\n");
        assertTrue(m.startsWith("line 2: more than one JSON document"), m);
    }

    @Test
    void trailingGarbageIsRefusedWithItsLine() {
        for (String garbage : List.of("x", "]", "}", "1", "\"s\"", ",")) {
            String m = refusal(ONE + "\n\n" + ONE + garbage + "\n");
            assertTrue(m.startsWith("line 3: trailing content after the JSON document"), garbage + ": " + m);
        }
        String m = refusal("{\n\"resourceLogs\": []\n}\n{}\n");
        assertTrue(m.startsWith("line 4: more than one JSON document"), m);
        m = refusal("{\n\"resourceLogs\": []\n}\n garbage\n");
        assertTrue(m.startsWith("line 4: trailing content"), m);
    }

    @Test
    void decodeErrorsNameTheLineAndThePath() {
        String m = refusal(ONE + "\n" + "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"traceId\":\"00\"}]}]}]}");
        assertTrue(m.startsWith("line 2: resourceLogs[0].scopeLogs[0].logRecords[0].traceId: "), m);
        m = refusal("{\n\"resourceLogs\": [\n{},\n{\"scopeLogs\": 5}\n]\n}\n");
        assertTrue(m.startsWith("line 4: resourceLogs[1].scopeLogs: expected an array"), m);
        m = refusal(ONE + "\n{\"resourceLogs\":[\n");
        assertTrue(m.startsWith("line 2: malformed JSON"), m);
    }
}
