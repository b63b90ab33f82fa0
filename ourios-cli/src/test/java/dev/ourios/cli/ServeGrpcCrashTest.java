package dev.ourios.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LogRecord;
import dev.ourios.testkit.Await;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.LogsServiceGrpc;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable acknowledgement over OTLP/gRPC across SIGKILL: gRPC clients export to a real {@code ourios serve} (child
 * JVM) while it is killed at a random moment, again and again; after a restart replays the WAL, every call answered
 * OK has all its records in the store, and none is there twice (the clients never retry, so a duplicate would be the
 * receiver's). A few kills in CI; {@code -Dourios.soak=true} for 20.
 */
class ServeGrpcCrashTest {
    private static final long T0 = System.currentTimeMillis() * 1_000_000L;
    private static final int PER_REQUEST = 50;

    @TempDir
    Path dir;

    private static Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("OURIOS_COMPACTION_ENABLED", "false");
        env.put("OURIOS_INGEST_FLUSH_INTERVAL", "300ms");
        env.put("OURIOS_INGEST_FLUSH_BYTES", "256KiB");
        return env;
    }

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void every_record_acknowledged_over_grpc_survives_sigkill_exactly_once() throws Exception {
        Path store = Files.createDirectories(dir.resolve("store"));
        Set<Long> acked = ConcurrentHashMap.newKeySet();
        AtomicLong nextSeq = new AtomicLong();
        Random random = new Random(11);
        int kills = Boolean.getBoolean("ourios.soak") ? 20 : 3;
        for (int k = 0; k < kills; k++) {
            try (DaemonProcess serve = DaemonProcess.start(dir, env(), "serve", "--store", store.toString(),
                    "--http", "127.0.0.1:0")) {
                ManagedChannel channel = channel(serve);
                try {
                    AtomicBoolean stop = new AtomicBoolean();
                    List<Thread> clients = startClients(() -> send(channel, nextSeq, acked, stop));
                    long before = acked.size();
                    Await.until("a first acknowledgement", Duration.ofSeconds(60), () -> acked.size() > before);
                    Await.poll(Duration.ofMillis(100 + random.nextInt(1500)), () -> false); // a bounded random delay
                    assertTrue(serve.kill9(), "killed");
                    stop.set(true);
                    join(clients);
                } finally {
                    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
                }
            }
        }
        try (DaemonProcess serve = DaemonProcess.start(dir, env(), "serve", "--store", store.toString(),
                "--http", "127.0.0.1:0")) {
            serve.grpcPort();
            assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
        }
        AcknowledgedSeqs.assertEachStoredOnce(store, acked, (long) kills * PER_REQUEST);
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void sigterm_under_grpc_load_answers_what_it_accepted_refuses_the_rest_and_flushes() throws Exception {
        Path store = Files.createDirectories(dir.resolve("store"));
        Set<Long> acked = ConcurrentHashMap.newKeySet();
        AtomicLong nextSeq = new AtomicLong();
        Set<io.grpc.Status.Code> refusals = ConcurrentHashMap.newKeySet();
        try (DaemonProcess serve = DaemonProcess.start(dir, env(), "serve", "--store", store.toString(),
                "--http", "127.0.0.1:0")) {
            ManagedChannel channel = channel(serve);
            try {
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> clients = startClients(() -> send(channel, nextSeq, acked, stop, refusals::add));
                Await.until("some acknowledgements", Duration.ofSeconds(60), () -> acked.size() >= 10 * PER_REQUEST);
                assertEquals(0, serve.terminate(), String.join("\n", serve.err()));
                stop.set(true);
                join(clients);
                assertTrue(serve.err().stream().anyMatch(l -> l.contains("ingest drained: every record flushed")),
                        String.join("\n", serve.err()));
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
        assertTrue(refusals.stream().allMatch(c -> c == io.grpc.Status.Code.UNAVAILABLE),
                "calls during and after the drain are refused as retryable: " + refusals);
        AcknowledgedSeqs.assertEachStoredOnce(store, acked, 10L * PER_REQUEST);
    }

    private static void send(ManagedChannel channel, AtomicLong nextSeq, Set<Long> acked, AtomicBoolean stop) {
        send(channel, nextSeq, acked, stop, code -> { });
    }

    /** Sends until {@code stop}; each refused call's status code goes to {@code refused}, and is never retried. */
    private static void send(ManagedChannel channel, AtomicLong nextSeq, Set<Long> acked, AtomicBoolean stop,
            java.util.function.Consumer<io.grpc.Status.Code> refused) {
        LogsServiceGrpc.LogsServiceBlockingStub stub = LogsServiceGrpc.newBlockingStub(channel);
        while (!stop.get()) {
            long first = nextSeq.getAndAdd(PER_REQUEST);
            try {
                stub.withDeadlineAfter(30, TimeUnit.SECONDS).export(request(first));
                for (int i = 0; i < PER_REQUEST; i++) {
                    acked.add(first + i);
                }
            } catch (RuntimeException e) {
                // Refused, or the server died mid-call: not acknowledged, and never retried (a retry could duplicate).
                if (e instanceof io.grpc.StatusRuntimeException s) {
                    refused.accept(s.getStatus().getCode());
                }
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
        }
    }

    private static ExportLogsServiceRequest request(long firstSeq) {
        ScopeLogs.Builder scope = ScopeLogs.newBuilder();
        for (int i = 0; i < PER_REQUEST; i++) {
            long seq = firstSeq + i;
            scope.addLogRecords(io.opentelemetry.proto.logs.v1.LogRecord.newBuilder().setTimeUnixNano(T0 + seq)
                    .setSeverityNumberValue(9).setBody(AnyValue.newBuilder().setStringValue("seq-" + seq)));
        }
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(scope))
                .build();
    }

    private static ManagedChannel channel(DaemonProcess serve) throws Exception {
        return NettyChannelBuilder.forAddress("127.0.0.1", serve.grpcPort()).usePlaintext().disableRetry().build();
    }

    /** Three client threads, each running {@code work}. */
    private static List<Thread> startClients(Runnable work) {
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            Thread t = new Thread(work, "grpc-client-" + c);
            t.start();
            clients.add(t);
        }
        return clients;
    }

    private static void join(List<Thread> clients) throws InterruptedException {
        for (Thread t : clients) {
            t.join(Duration.ofSeconds(60).toMillis());
        }
    }
}
