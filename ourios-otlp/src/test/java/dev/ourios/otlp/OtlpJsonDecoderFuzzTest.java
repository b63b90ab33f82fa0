package dev.ourios.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.core.json.JsonPathException;
import dev.ourios.testkit.Fuzzer;
import dev.ourios.testkit.Mutator;
import dev.ourios.testkit.Testdata;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded fuzzing of the OTLP/JSON decoder behind {@code ourios ingest}: random mutations of the repository's OTLP/JSON
 * samples. Every case decodes to rows or throws a {@link JsonPathException} whose message names the JSON path at
 * fault (exit 2 with the input and line in the CLI): never another exception, a hang or an out-of-memory error.
 *
 * <p>{@code -Dourios.fuzz.cases=N} runs N cases (default 3000); {@code -Dourios.fuzz.seed=S} replays a run.
 */
@Timeout(300)
class OtlpJsonDecoderFuzzTest {
    @Test
    void mutated_otlp_json_documents_decode_or_name_the_path_at_fault() throws Exception {
        List<byte[]> valid = new ArrayList<>();
        valid.add(Files.readAllBytes(Testdata.file("otlp", "opentelemetry-proto-example-logs.json")));
        for (String line : Files.readAllLines(Testdata.file("otlp", "reference-sample.jsonl"))) {
            if (!line.isBlank() && valid.size() < 8) {
                valid.add(line.getBytes(StandardCharsets.UTF_8));
            }
        }
        for (byte[] v : valid) {
            OtlpJsonDecoder.decode("fuzz", new String(v, StandardCharsets.UTF_8));
        }
        Fuzzer.Result r = new Fuzzer("otlp-json-file", new Mutator(valid), Duration.ofSeconds(10)).run(Fuzzer.seed(),
                Fuzzer.cases(3000), JsonPathException.class, b -> {
                    OtlpJsonDecoder.decode("fuzz", new String(b, StandardCharsets.UTF_8));
                    return null;
                });
        assertEquals(r.cases(), r.accepted() + r.refused());
    }
}
