package dev.ourios.server.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.query.Query;
import dev.ourios.testkit.Fuzzer;
import dev.ourios.testkit.Mutator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded fuzzing of the {@code POST /v1/query} body parser: random mutations (bit flips, truncations, insertions,
 * splices, member deletions, extreme values) of valid requests. Every case is a query within the documented ranges
 * or a {@link BadRequest} with status 400 and a message: never another exception (which the server would answer
 * with a 500), a hang or an out-of-memory error.
 *
 * <p>{@code -Dourios.fuzz.cases=N} runs N cases (default 5000); {@code -Dourios.fuzz.seed=S} replays a run.
 */
@Timeout(300)
class QueryRequestFuzzTest {
    private static final int MAX_ROWS = 1000;

    private static final List<String> VALID = List.of(
            "{}",
            "{\"from\":\"2026-11-01T10:00:00Z\",\"to\":\"2026-11-01T12:00:00+01:00\",\"service\":\"cart\","
                    + "\"template_id\":\"18446744073709551615\",\"severity_min\":9,"
                    + "\"trace_id\":\"0123456789ABCDEF0123456789abcdef\",\"contains\":\"timeout\",\"limit\":5,"
                    + "\"order\":\"oldest_first\",\"count\":false}",
            "{\"severity_min\":17,\"count\":true,\"template_id\":42,\"order\":\"newest_first\",\"limit\":null}",
            "{\"service\":\"caf\\u00e9 \\ud83d\\ude00\",\"contains\":\"a\\nb\",\"from\":null,\"to\":\"2026-11-01T10:01:00Z\"}");

    /** What an accepted request must satisfy: the tenant kept, the limit in range, a non-empty window. */
    private static String judge(byte[] body) {
        QueryRequest.Parsed p = QueryRequest.parseRequest("acme", body, MAX_ROWS);
        Query q = p.query();
        if (!"acme".equals(q.tenant())) {
            return "the tenant changed to " + q.tenant();
        }
        if (q.limit().isEmpty() || q.limit().getAsLong() < 0 || q.limit().getAsLong() > MAX_ROWS) {
            return "limit " + q.limit() + " outside 0.." + MAX_ROWS;
        }
        if (q.severityMin().isPresent() && (q.severityMin().getAsInt() < 1 || q.severityMin().getAsInt() > 24)) {
            return "severity_min " + q.severityMin() + " outside 1..24";
        }
        if (q.from().isPresent() && q.to().isPresent() && !q.from().get().isBefore(q.to().get())) {
            return "an empty window was accepted";
        }
        return null;
    }

    @Test
    void mutated_query_bodies_parse_or_are_refused_with_a_400() throws Exception {
        List<byte[]> valid = VALID.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();
        for (byte[] v : valid) {
            assertEquals(null, judge(v), "a valid body is judged clean");
        }
        Fuzzer.Result r = new Fuzzer("query-request", new Mutator(valid), Duration.ofSeconds(10)).run(Fuzzer.seed(),
                Fuzzer.cases(5000), BadRequest.class, b -> {
                    try {
                        return judge(b);
                    } catch (BadRequest e) {
                        if (e.status() != 400) {
                            throw new AssertionError("status " + e.status() + " for a malformed body", e);
                        }
                        throw e;
                    }
                });
        assertEquals(r.cases(), r.accepted() + r.refused());
    }
}
