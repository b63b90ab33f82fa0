package dev.ourios.bench.ingest;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code clients} threads, each a real HTTP client posting protobuf requests back to back for a fixed window, as an
 * SDK's exporter does under load: a client sends its next request when the previous one is answered. Client
 * {@code i} takes requests {@code i, i + clients, …} of the pool, wrapping around.
 */
public final class OtlpLoad {
    private final URI endpoint;
    private final RequestPool pool;
    private final int clients;

    public OtlpLoad(URI endpoint, RequestPool pool, int clients) {
        this.endpoint = endpoint;
        this.pool = pool;
        this.clients = clients;
    }

    public LoadResult run(Duration window) throws InterruptedException {
        // HTTP/1.1 as the OTLP exporters speak it; the JDK's default would first offer an h2c upgrade.
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        long start = System.nanoTime();
        long end = start + window.toNanos();
        List<Client> cs = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            Client c = new Client(http, i, end);
            c.thread.start();
            cs.add(c);
        }
        for (Client c : cs) {
            c.thread.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long requests = 0;
        long records = 0;
        long bytes = 0;
        long refused = 0;
        long failed = 0;
        Latencies all = new Latencies();
        for (Client c : cs) {
            requests += c.latencies.size();
            records += c.records;
            bytes += c.bytes;
            refused += c.refused;
            failed += c.failed;
            all.addAll(c.latencies);
        }
        return new LoadResult(requests, records, bytes, refused, failed, seconds, all.percentileMs(0.50),
                all.percentileMs(0.99), all.percentileMs(1.0));
    }

    private final class Client {
        final Thread thread;
        final Latencies latencies = new Latencies();
        long records;
        long bytes;
        long refused;
        long failed;

        Client(HttpClient http, int first, long end) {
            thread = new Thread(() -> loop(http, first, end), "otlp-client-" + first);
        }

        private void loop(HttpClient http, int first, long end) {
            int n = pool.requests().size();
            for (int i = first % n; System.nanoTime() < end; i = (i + clients) % n) {
                RequestPool.Request r = pool.requests().get(i);
                HttpRequest req = HttpRequest.newBuilder(endpoint).header("Content-Type", "application/x-protobuf")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(r.protobuf())).build();
                long sent = System.nanoTime();
                try {
                    int status = http.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
                    if (status == 200) {
                        latencies.add(System.nanoTime() - sent);
                        records += r.records();
                        bytes += r.protobuf().length;
                    } else if (status == 429 || status == 503) {
                        refused++;
                    } else {
                        failed++;
                    }
                } catch (java.io.IOException e) {
                    failed++;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Nanosecond samples in a growable array: no boxing on the clients' hot path. */
    private static final class Latencies {
        private long[] values = new long[1024];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        void addAll(Latencies o) {
            for (int i = 0; i < o.size; i++) {
                add(o.values[i]);
            }
        }

        int size() {
            return size;
        }

        double percentileMs(double p) {
            if (size == 0) {
                return Double.NaN;
            }
            long[] s = Arrays.copyOf(values, size);
            Arrays.sort(s);
            int idx = (int) Math.min(size - 1, Math.ceil(p * size) - 1);
            return s[Math.max(0, idx)] / 1e6;
        }
    }
}
