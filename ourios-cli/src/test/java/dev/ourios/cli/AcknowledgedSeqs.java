package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The verdict of the ingest crash tests: records whose bodies are {@code seq-<n>}, acknowledged by a server that
 * was killed, must each be stored exactly once once the server has restarted and drained.
 */
final class AcknowledgedSeqs {
    private AcknowledgedSeqs() {
    }

    /** Every acknowledged sequence number is stored in {@code store} for tenant "default", none twice. */
    static void assertEachStoredOnce(Path store, Set<Long> acked, long atLeast) throws IOException {
        Map<Long, Integer> seen = new HashMap<>();
        try (LocalObjectStore s = new LocalObjectStore(store)) {
            QueryEngine q = new QueryEngine(s, new TableLayout(s), new TableReader(s, new ManifestCodec()),
                    MeterProvider.noop());
            for (LogRecord r : q.collect(Query.tenant("default")).rows()) {
                long seq = Long.parseLong(new String(r.body(), StandardCharsets.UTF_8).substring(4));
                seen.merge(seq, 1, Integer::sum);
            }
        }
        List<Long> missing = acked.stream().filter(seq -> !seen.containsKey(seq)).sorted().limit(10).toList();
        assertTrue(missing.isEmpty(), "acknowledged but lost (first 10): " + missing + " of " + acked.size());
        List<Long> twice = seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).limit(10)
                .toList();
        assertTrue(twice.isEmpty(), "stored more than once: " + twice);
        assertTrue(acked.size() >= atLeast, "acked " + acked.size());
    }
}
