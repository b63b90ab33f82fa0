package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.iceberg.IcebergView;
import dev.ourios.iceberg.IcebergWiring;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.store.ObjectStore;
import dev.ourios.testkit.Await;
import dev.ourios.testkit.TestSeed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.Parquet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ourios serve} with {@code iceberg.enabled}: what its OTLP receiver lands and what a deletion over its API
 * removes reach the Iceberg view within the sync interval, with no sweep and no reconciliation in between (sweeps
 * every hour, reconciliation every hour). Iceberg's own scan planning and Parquet reader count exactly the rows
 * {@code ourios query --count} counts, per tenant.
 */
class ServeIcebergFreshnessTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration FRESH = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void ingestAndApiDeletionsReachTheViewWithinTheSyncInterval() throws Exception {
        long seed = TestSeed.announce(ServeIcebergFreshnessTest.class);
        Random random = new Random(seed);
        Path root = dir.resolve("s");
        Files.createDirectories(root);
        String store = root.toString();
        // Two hours before the current one, so the rows fall in two partitions per tenant.
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(3));
        Map<String, String> env = Map.of("OURIOS_ICEBERG_ENABLED", "true", "OURIOS_ICEBERG_SYNC_INTERVAL", "1s",
                "OURIOS_INGEST_FLUSH_INTERVAL", "1s");
        try (DaemonProcess serve = DaemonProcess.start(dir, env, "serve", "--store", store, "--http", "127.0.0.1:0",
                "--interval", "1h");
                ObjectStore s = new LocalObjectStore(root)) {
            IcebergView view = IcebergWiring.view(s, store);
            String logs = "http://127.0.0.1:" + serve.ingestPort() + "/v1/logs";
            long acme = 0;
            long acmeErrors = 0;
            long globex = 0;
            for (int request = 0; request < 6; request++) {
                String tenant = request % 3 == 2 ? "globex" : "acme";
                int rows = 1 + random.nextInt(40);
                StringBuilder body = new StringBuilder("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[");
                for (int i = 0; i < rows; i++) {
                    Instant t = hour.plusSeconds(random.nextInt(7200));
                    int severity = random.nextBoolean() ? 17 : 9;
                    body.append(i == 0 ? "" : ",").append("{\"timeUnixNano\":\"")
                            .append(t.getEpochSecond() * 1_000_000_000L).append("\",\"severityNumber\":")
                            .append(severity).append(",\"body\":{\"stringValue\":\"row ").append(i).append("\"}}");
                    if (tenant.equals("acme")) {
                        acme++;
                        acmeErrors += severity >= 17 ? 1 : 0;
                    } else {
                        globex++;
                    }
                }
                body.append("]}]}]}");
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(logs))
                        .header("Content-Type", "application/json").header("X-Ourios-Tenant", tenant)
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                        .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
                assertFalse(r.body().contains("rejected"), r.body());
            }
            awaitView(view, "acme", acme);
            awaitView(view, "globex", globex);
            assertEquals(acme, queryCount(store, "acme"));
            assertEquals(globex, queryCount(store, "globex"));

            // A deletion over the API reaches the view the same way, without waiting for a sweep.
            String filter = "{\"from\":\"" + hour + "\",\"to\":\"" + hour.plus(Duration.ofHours(2))
                    + "\",\"severity_min\":17}";
            HttpResponse<String> deleted = serve.post("/v1/delete", "acme", filter);
            assertEquals(200, deleted.statusCode(), deleted.body());
            assertEquals(acmeErrors, JSON.readTree(deleted.body()).get("rows_removed").asLong(), deleted.body());
            awaitView(view, "acme", acme - acmeErrors);
            assertEquals(acme - acmeErrors, queryCount(store, "acme"));
            assertEquals(globex, icebergCount(view, "globex"));

            // Only the start's reconciliation read every partition; the changes were synced partially.
            int full = 0;
            int partial = 0;
            for (String line : serve.err()) {
                if (line.contains("\"EventName\":\"ourios.iceberg.synced\"")) {
                    JsonNode a = JSON.readTree(line).get("Attributes");
                    full += a.get("ourios.iceberg.full").asBoolean() ? 1 : 0;
                    partial += a.get("ourios.iceberg.full").asBoolean() ? 0 : 1;
                }
            }
            assertTrue(full <= 1, String.join("\n", serve.err()));
            assertTrue(partial >= 2, String.join("\n", serve.err()));
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
    }

    private void awaitView(IcebergView view, String tenant, long rows) throws InterruptedException {
        long[] seen = {-1};
        Await.until(() -> "the Iceberg view to hold " + rows + " rows of " + tenant + " (it holds " + seen[0] + ")",
                FRESH, () -> (seen[0] = icebergCount(view, tenant)) == rows);
    }

    private long queryCount(String store, String tenant) throws Exception {
        var q = CliProcess.run(dir, "query", "--store", store, "--tenant", tenant, "--count");
        assertEquals(0, q.exit(), q.err());
        return Long.parseLong(q.outLines().get(0).trim());
    }

    /**
     * The tenant's rows as Iceberg reads them: files planned by Iceberg's scan of the current snapshot, each read
     * by Iceberg's generic Parquet reader with the table's name mapping (as engines read it).
     */
    private static long icebergCount(IcebergView view, String tenant) {
        Optional<Table> table = view.table();
        if (table.isEmpty() || table.get().currentSnapshot() == null) {
            return 0;
        }
        Table t = table.get();
        Schema schema = t.schema();
        NameMapping mapping = NameMappingParser.fromJson(t.properties().get(TableProperties.DEFAULT_NAME_MAPPING));
        long n = 0;
        try (CloseableIterable<FileScanTask> tasks = t.newScan().filter(Expressions.equal("tenant_id", tenant))
                .planFiles()) {
            for (FileScanTask task : tasks) {
                try (CloseableIterable<Record> it = Parquet.read(t.io().newInputFile(task.file().location()))
                        .project(schema).withNameMapping(mapping)
                        .createReaderFunc(fs -> GenericParquetReaders.buildReader(schema, fs, Map.of())).build()) {
                    for (Record r : it) {
                        n += tenant.equals(r.getField("tenant_id")) ? 1 : 0;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return n;
    }
}
