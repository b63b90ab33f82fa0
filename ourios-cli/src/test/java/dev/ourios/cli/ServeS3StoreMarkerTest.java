package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.StoreMarker;
import dev.ourios.store.s3.S3ObjectStore;
import dev.ourios.store.s3.S3ProxyServer;
import dev.ourios.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On S3 too the store is recognised by its marker: {@code serve} writes it into a new prefix; when it is deleted
 * under a running {@code serve}, flushes write nothing, {@code /readyz} is 503 naming it, the records wait in the
 * WAL, and once the marker is back they land by themselves.
 */
class ServeS3StoreMarkerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static List<String> dataKeys(S3ObjectStore store) {
        try {
            List<String> keys = new ArrayList<>();
            for (String y : store.listDirectories("data/tenant_id=acme/")) {
                for (String m : store.listDirectories("data/tenant_id=acme/" + y + "/")) {
                    for (String d : store.listDirectories("data/tenant_id=acme/" + y + "/" + m + "/")) {
                        for (String h : store.listDirectories("data/tenant_id=acme/" + y + "/" + m + "/" + d
                                + "/")) {
                            for (ObjectInfo o : store.listObjects("data/tenant_id=acme/" + y + "/" + m + "/" + d
                                    + "/" + h + "/")) {
                                keys.add(o.key());
                            }
                        }
                    }
                }
            }
            return keys;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void a_deleted_marker_holds_the_records_in_the_wal_until_it_is_back() throws Exception {
        try (S3ProxyServer s3 = S3ProxyServer.start()) {
            s3.createBucket("logs");
            S3ObjectStore view = new S3ObjectStore(s3.config("logs", "prod"));
            try (DaemonProcess serve = DaemonProcess.start(dir, Map.of("OURIOS_STORE", "s3://logs/prod",
                    "OURIOS_S3_ENDPOINT", s3.endpoint().toString(),
                    "OURIOS_S3_ACCESS_KEY_ID", S3ProxyServer.IDENTITY,
                    "OURIOS_S3_SECRET_ACCESS_KEY", S3ProxyServer.CREDENTIAL,
                    "OURIOS_HTTP", "127.0.0.1:0", "OURIOS_COMPACTION_ENABLED", "false",
                    "OURIOS_INGEST_FLUSH_INTERVAL", "200ms",
                    "OURIOS_INGEST_WAL_DIR", dir.resolve("wal").toString()), "serve")) {
                int otlp = serve.ingestPort();
                byte[] marker = view.readAllBytes(StoreMarker.KEY);
                assertEquals(200, OneRecordExport.send(otlp, 0));
                Await.until("the first record flushed", Duration.ofSeconds(30), () -> dataKeys(view).size() == 1);

                view.delete(StoreMarker.KEY);
                for (int i = 1; i <= 5; i++) {
                    assertEquals(200, OneRecordExport.send(otlp, i), "the WAL still takes records");
                }
                serve.awaitLine(false, l -> l.contains("identity marker") && l.contains("retrying"),
                        Duration.ofSeconds(30));
                HttpResponse<String> notReady = serve.get("/readyz", null);
                assertEquals(503, notReady.statusCode(), notReady.body());
                assertTrue(JSON.readTree(notReady.body()).get("reason").asText().contains(StoreMarker.KEY),
                        notReady.body());
                assertEquals(1, dataKeys(view).size(), "nothing written while the marker is gone");

                view.putIfAbsent(StoreMarker.KEY, marker);
                Await.until("the held records flushed", Duration.ofSeconds(60), () -> dataKeys(view).size() > 1);
                Await.until("ready again", Duration.ofSeconds(30), () -> {
                    try {
                        return serve.get("/readyz", null).statusCode() == 200;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                HttpResponse<String> q = serve.post("/v1/query", "acme", "{\"count\":true}");
                assertEquals(6, JSON.readTree(q.body()).get("count").asLong(), q.body());
                assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
            } finally {
                view.close();
            }
        }
    }
}
