package dev.ourios.server.otlp.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.rpc.RetryInfo;
import dev.ourios.http.ServerOptions;
import dev.ourios.ingest.IngestMetrics;
import dev.ourios.ingest.IngestSettings;
import dev.ourios.ingest.Ingester;
import dev.ourios.query.Query;
import dev.ourios.query.QueryEngine;
import dev.ourios.security.ApiKey;
import dev.ourios.security.Authorizer;
import dev.ourios.security.KeyRing;
import dev.ourios.security.KeysFile;
import dev.ourios.security.KeysFileCodec;
import dev.ourios.security.Scope;
import dev.ourios.security.TenantGrant;
import dev.ourios.security.TokenHash;
import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.logs.v1.LogsServiceGrpc;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTLP/gRPC receiver in this JVM, called by a grpc-java client: stored for the metadata's tenant with gzip and
 * partial success as OTLP/HTTP fills it, and every refusal with the code the OTLP specification asks for, a
 * RetryInfo on exactly the retryable ones.
 */
class OtlpGrpcReceiverTest {
    private static final long NOW_NANOS = Instant.now().toEpochMilli() * 1_000_000L;
    @TempDir
    Path dir;
    private LocalObjectStore store;
    private Ingester ingester;
    private OtlpGrpcReceiver receiver;
    private ManagedChannel channel;
    private InetSocketAddress bound;

    private void start(IngestSettings settings, Authorizer authorizer) throws IOException {
        start(settings, authorizer, ServerOptions.defaults("test", new InetSocketAddress("127.0.0.1", 0), 2, 8));
    }

    private void start(IngestSettings settings, Authorizer authorizer, ServerOptions listener) throws IOException {
        store = new LocalObjectStore(Files.createDirectories(dir.resolve("store")));
        ingester = Ingester.open(settings, store, new IngestMetrics(MeterProvider.noop()));
        receiver = new OtlpGrpcReceiver(ingester, new OtlpGrpcSettings(new InetSocketAddress("127.0.0.1", 0),
                "ingest.grpc_listen"), listener, authorizer);
        bound = receiver.start();
        channel = NettyChannelBuilder.forAddress("127.0.0.1", bound.getPort()).usePlaintext().build();
    }

    private IngestSettings settings() {
        return IngestSettings.defaults(new InetSocketAddress("127.0.0.1", 0), dir.resolve("wal"))
                .withFlush(16L << 20, Duration.ofMillis(100));
    }

    @AfterEach
    void stop() throws Exception {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        if (receiver != null) {
            receiver.stop(Duration.ofSeconds(5));
            ingester.drain(Duration.ofSeconds(30));
            store.close();
        }
    }

    @Test
    void connections_beyond_the_cap_wait_in_the_backlog_until_one_closes() throws Exception {
        Duration handshake = Duration.ofSeconds(120); // the held connections stay for the whole test
        start(settings(), Authorizer.off(r -> { }), ServerOptions.defaults("test",
                new InetSocketAddress("127.0.0.1", 0), 2, 8).withLimits(2, 16 << 10)
                .withTimeouts(handshake, handshake, handshake));
        try (java.net.Socket first = new java.net.Socket("127.0.0.1", bound.getPort());
                java.net.Socket second = new java.net.Socket("127.0.0.1", bound.getPort())) {
            // Two connections (silent ones) hold the port's two places: a call cannot get a third.
            assertEquals(Status.Code.DEADLINE_EXCEEDED, code(() -> LogsServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(3, TimeUnit.SECONDS).export(request(1, false))));
            first.close();
            ExportLogsServiceResponse ok = LogsServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(60, TimeUnit.SECONDS).export(request(1, false));
            assertFalse(ok.hasPartialSuccess(), "taken once a place is free");
        }
    }

    @Test
    void a_connection_that_never_finishes_its_handshake_is_closed_after_the_header_timeout() throws Exception {
        start(settings(), Authorizer.off(r -> { }), ServerOptions.defaults("test",
                new InetSocketAddress("127.0.0.1", 0), 2, 8).withTimeouts(Duration.ofSeconds(1),
                Duration.ofSeconds(30), Duration.ofSeconds(30)));
        try (java.net.Socket silent = new java.net.Socket("127.0.0.1", bound.getPort())) {
            silent.setSoTimeout(30_000);
            // Nothing sent: no HTTP/2 preface. The server closes it rather than wait for ever; the read throws
            // SocketTimeoutException after 30 s if it does not.
            byte[] buf = new byte[1 << 16];
            while (silent.getInputStream().read(buf) >= 0) {
                // the server's own settings frame may come first, then the end of the stream
            }
        }
    }

    @Test
    void records_are_stored_for_the_metadata_tenant_gzip_and_partial_success_as_over_http() throws Exception {
        start(settings(), Authorizer.off(r -> { }));
        ExportLogsServiceResponse ok = stub(null, "acme%2Feu").withCompression("gzip").export(request(3, false));
        assertFalse(ok.hasPartialSuccess(), "every record accepted: no partial_success");
        ExportLogsServiceResponse partial = stub(null, "acme%2Feu").export(request(2, true));
        assertEquals(1, partial.getPartialSuccess().getRejectedLogRecords());
        assertTrue(partial.getPartialSuccess().getErrorMessage().contains("trace_id must be 16 bytes, got 3"),
                partial.getPartialSuccess().getErrorMessage());
        stub(null, null).export(request(1, false));
        assertTrue(ingester.drain(Duration.ofSeconds(30)));
        QueryEngine engine = new QueryEngine(store, new TableLayout(store), new TableReader(store,
                new ManifestCodec()), MeterProvider.noop());
        assertEquals(5, engine.count(Query.tenant("acme/eu")).rows(), "3, then 2 of 3");
        assertEquals(1, engine.count(Query.tenant("default")).rows(), "no tenant metadata: the default tenant");
    }

    @Test
    void api_keys_decide_each_call_before_its_message_is_read() throws Exception {
        Path keys = dir.resolve("keys.json");
        KeysFile file = KeysFile.empty()
                .add(key("writer", "w-token", List.of("acme"), Scope.INGEST))
                .add(key("reader", "r-token", List.of("acme"), Scope.QUERY));
        Files.write(keys, new KeysFileCodec().encode(file));
        start(settings(), Authorizer.withKeys(KeyRing.open(keys, Clock.systemUTC()), r -> { }));
        assertEquals(Status.Code.UNAUTHENTICATED, code(() -> stub(null, "acme").export(request(1, false))));
        assertEquals(Status.Code.UNAUTHENTICATED, code(() -> stub("Bearer nope", "acme").export(request(1, false))));
        assertEquals(Status.Code.PERMISSION_DENIED, code(() -> stub("Bearer r-token", "acme")
                .export(request(1, false))), "a key without the ingest scope");
        assertEquals(Status.Code.PERMISSION_DENIED, code(() -> stub("Bearer w-token", "globex")
                .export(request(1, false))), "a tenant the key may not use");
        assertEquals(Status.Code.INVALID_ARGUMENT, code(() -> stub("Bearer w-token", "ac%zz")
                .export(request(1, false))), "a malformed tenant");
        assertFalse(stub("Bearer w-token", null).export(request(1, false)).hasPartialSuccess(),
                "a one-tenant key's tenant without metadata");
    }

    @Test
    void an_oversize_message_is_resource_exhausted_without_retry_info_and_garbage_is_invalid_argument()
            throws Exception {
        start(settings().withLimits(IngestSettings.DEFAULT_MAX_BUFFER_BYTES, IngestSettings.DEFAULT_WAL_MAX_BYTES,
                4096), Authorizer.off(r -> { }));
        StatusRuntimeException big = assertThrows(StatusRuntimeException.class,
                () -> stub(null, "acme").export(request(200, false)));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, big.getStatus().getCode(), big.toString());
        assertTrue(retryInfo(big).isEmpty(), "not retryable: the same message fails the same way");
        ExportLogsServiceRequest compressible = request(200, false);
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gz)) {
            compressible.writeTo(out);
        }
        assertTrue(gz.size() < 4096 && compressible.getSerializedSize() > 4096, "small sent, large inflated");
        StatusRuntimeException bomb = assertThrows(StatusRuntimeException.class,
                () -> stub(null, "acme").withCompression("gzip").export(compressible));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, bomb.getStatus().getCode(), "the limit applies after gzip");
        // A client that says gzip and sends the bytes as they are.
        io.grpc.Codec notGzip = new io.grpc.Codec() {
            @Override
            public String getMessageEncoding() {
                return "gzip";
            }

            @Override
            public java.io.OutputStream compress(java.io.OutputStream os) {
                return os;
            }

            @Override
            public InputStream decompress(InputStream is) {
                return is;
            }
        };
        io.grpc.CompressorRegistry lying = io.grpc.CompressorRegistry.newEmptyInstance();
        lying.register(notGzip);
        ManagedChannel liar = NettyChannelBuilder.forAddress("127.0.0.1", bound.getPort()).usePlaintext()
                .compressorRegistry(lying).build();
        try {
            StatusRuntimeException notInflating = assertThrows(StatusRuntimeException.class, () -> LogsServiceGrpc
                    .newBlockingStub(liar).withDeadlineAfter(30, TimeUnit.SECONDS).withCompression("gzip")
                    .export(request(1, false)));
            assertEquals(Status.Code.INVALID_ARGUMENT, notInflating.getStatus().getCode(), notInflating.toString());
        } finally {
            liar.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        StatusRuntimeException garbage = assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(
                channel, RAW, CallOptions.DEFAULT, new byte[] {(byte) 0xFF, 1, 2}));
        assertEquals(Status.Code.INVALID_ARGUMENT, garbage.getStatus().getCode());
        assertTrue(garbage.getStatus().getDescription().length() <= 300, garbage.getStatus().getDescription());
        assertTrue(retryInfo(garbage).isEmpty());
    }

    @Test
    void a_full_request_buffer_and_a_stopping_receiver_are_retryable_with_retry_info() throws Exception {
        start(settings(), Authorizer.off(r -> { }));
        // Other requests hold the whole buffer: this one cannot be taken in now, but can later.
        long all = IngestSettings.DEFAULT_MAX_BUFFER_BYTES;
        assertTrue(ingester.budget().tryAcquire(all));
        try {
            StatusRuntimeException full = assertThrows(StatusRuntimeException.class,
                    () -> stub(null, "acme").export(request(1, false)));
            assertEquals(Status.Code.RESOURCE_EXHAUSTED, full.getStatus().getCode());
            assertEquals(Optional.of(1L), retryInfo(full).map(r -> r.getRetryDelay().getSeconds()));
        } finally {
            ingester.budget().release(all);
        }
        assertFalse(stub(null, "acme").export(request(1, false)).hasPartialSuccess(), "taken once there is room");
        ingester.stopAccepting();
        StatusRuntimeException stopping = assertThrows(StatusRuntimeException.class,
                () -> stub(null, "acme").export(request(1, false)));
        assertEquals(Status.Code.UNAVAILABLE, stopping.getStatus().getCode());
        assertTrue(retryInfo(stopping).isPresent(), "retryable: another instance, or this one restarted, takes it");
    }

    @Test
    void a_tenant_id_no_partition_path_can_hold_is_invalid_argument_and_the_others_go_on() throws Exception {
        start(settings(), Authorizer.off(r -> { }));
        String tooLong = "t".repeat(dev.ourios.core.TenantCodec.MAX_TENANT_BYTES + 1);
        StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
                () -> stub(null, tooLong).export(request(3, false)));
        assertEquals(Status.Code.INVALID_ARGUMENT, refused.getStatus().getCode(), refused.toString());
        assertTrue(retryInfo(refused).isEmpty(), "not retryable: the same tenant id fails the same way");
        assertTrue(refused.getStatus().getDescription().length() <= 300, refused.getStatus().getDescription());
        assertEquals(0, ingester.walPendingBytes(), "nothing of the refused call reached the write-ahead log");
        String longest = "t".repeat(dev.ourios.core.TenantCodec.MAX_TENANT_BYTES);
        assertFalse(stub(null, longest).export(request(2, false)).hasPartialSuccess(), "the limit itself is taken");
        assertFalse(stub(null, "acme").export(request(2, false)).hasPartialSuccess());
        assertTrue(ingester.drain(Duration.ofSeconds(30)), "both flushed: the long tenant id fits its path");
        QueryEngine q = new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop());
        assertEquals(2, q.count(Query.tenant(longest)).rows());
        assertEquals(2, q.count(Query.tenant("acme")).rows());
    }

    @Test
    void a_tenant_at_its_share_of_the_request_buffer_is_resource_exhausted_while_another_is_taken() throws Exception {
        start(settings(), Authorizer.off(r -> { }));
        // Calls of one tenant in flight hold its whole share; the buffer as a whole has room to spare.
        long share = ingester.budget().perOwnerLimit();
        assertTrue(share < IngestSettings.DEFAULT_MAX_BUFFER_BYTES);
        assertTrue(ingester.budget().tryAcquire("greedy", share));
        try {
            StatusRuntimeException full = assertThrows(StatusRuntimeException.class,
                    () -> stub(null, "greedy").export(request(1, false)));
            assertEquals(Status.Code.RESOURCE_EXHAUSTED, full.getStatus().getCode(), full.toString());
            assertEquals(Optional.of(1L), retryInfo(full).map(r -> r.getRetryDelay().getSeconds()));
            assertTrue(full.getStatus().getDescription().contains("ingest.max_tenant_buffer_share"),
                    full.getStatus().getDescription());
            assertFalse(stub(null, "acme").export(request(1, false)).hasPartialSuccess(),
                    "another tenant is taken while one is at its share");
            assertEquals(0, ingester.budget().used("acme"), "a call's charge is returned once it is answered");
        } finally {
            ingester.budget().release("greedy", share);
        }
        assertFalse(stub(null, "greedy").export(request(1, false)).hasPartialSuccess(), "taken once it has room");
        assertEquals(0, ingester.budget().used(), "every charge returned");
    }

    /**
     * One decoding thread and a burst of large calls: each call's message keeps the thread busy for milliseconds, so
     * calls that start meanwhile find more than {@link OtlpGrpcReceiver#WAITING_PER_THREAD} calls waiting and are
     * refused as at capacity (UNAVAILABLE with a RetryInfo), never queued without bound; every call is taken or
     * refused retryably, and every record of a taken one is stored.
     */
    @Test
    void calls_beyond_those_waiting_for_a_thread_are_unavailable_with_retry_info() throws Exception {
        IngestSettings one = settings();
        start(new IngestSettings(one.listen(), one.walDir(), one.flushBytes(), one.flushInterval(),
                one.maxBufferBytes(), one.walMaxBytes(), one.maxBodyBytes(), 1, 1.0), Authorizer.off(r -> { }));
        ExportLogsServiceRequest large = request(20_000, false); // about 2 MiB
        int calls = 48;
        LogsServiceGrpc.LogsServiceFutureStub async = LogsServiceGrpc.newFutureStub(channel)
                .withDeadlineAfter(60, TimeUnit.SECONDS).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(
                        tenantHeader("acme")));
        List<com.google.common.util.concurrent.ListenableFuture<ExportLogsServiceResponse>> sent = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            sent.add(async.export(large));
        }
        int taken = 0;
        int atCapacity = 0;
        for (var f : sent) {
            try {
                assertFalse(f.get(90, TimeUnit.SECONDS).hasPartialSuccess());
                taken++;
            } catch (java.util.concurrent.ExecutionException e) {
                StatusRuntimeException refused = (StatusRuntimeException) e.getCause();
                Status.Code code = refused.getStatus().getCode();
                assertTrue(code == Status.Code.UNAVAILABLE || code == Status.Code.RESOURCE_EXHAUSTED,
                        refused.toString());
                assertTrue(retryInfo(refused).isPresent(), "retryable: " + refused);
                if (refused.getStatus().getDescription().contains("calls waiting")) {
                    assertEquals(Status.Code.UNAVAILABLE, code, refused.toString());
                    atCapacity++;
                }
            }
        }
        assertTrue(atCapacity > 0, "no call was refused at capacity (" + taken + " taken of " + calls + ")");
        assertTrue(taken > 0, "none taken");
        assertTrue(ingester.drain(Duration.ofSeconds(60)));
        QueryEngine q = new QueryEngine(store, new TableLayout(store), new TableReader(store, new ManifestCodec()),
                MeterProvider.noop());
        assertEquals(20_000L * taken, q.count(Query.tenant("acme")).rows(), "every record of a taken call stored");
        assertEquals(0, ingester.budget().used(), "every charge returned");
    }

    private static Metadata tenantHeader(String tenant) {
        Metadata md = new Metadata();
        md.put(OtlpGrpcReceiver.TENANT, tenant);
        return md;
    }

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
    private static final MethodDescriptor<byte[], byte[]> RAW = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(LogsServiceGrpc.getExportMethod().getFullMethodName())
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

    private LogsServiceGrpc.LogsServiceBlockingStub stub(String authorization, String tenant) {
        Metadata md = new Metadata();
        if (authorization != null) {
            md.put(OtlpGrpcReceiver.AUTHORIZATION, authorization);
        }
        if (tenant != null) {
            md.put(OtlpGrpcReceiver.TENANT, tenant);
        }
        return LogsServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md));
    }

    private static Status.Code code(Runnable call) {
        return assertThrows(StatusRuntimeException.class, call::run).getStatus().getCode();
    }

    private static Optional<RetryInfo> retryInfo(StatusRuntimeException e) {
        com.google.rpc.Status s = StatusProto.fromThrowable(e);
        if (s == null) {
            return Optional.empty();
        }
        return s.getDetailsList().stream().filter(a -> a.is(RetryInfo.class)).findFirst().map(a -> {
            try {
                return a.unpack(RetryInfo.class);
            } catch (com.google.protobuf.InvalidProtocolBufferException x) {
                throw new AssertionError(x);
            }
        });
    }

    private static ApiKey key(String name, String token, List<String> tenants, Scope scope) {
        return new ApiKey(name, TokenHash.of(token), TenantGrant.of(tenants), EnumSet.of(scope),
                Instant.parse("2026-11-01T10:00:00Z"), Optional.empty());
    }

    /** {@code n} records of about 100 bytes each; with {@code badTrace} one more whose trace id is 3 bytes. */
    private static ExportLogsServiceRequest request(int n, boolean badTrace) {
        ScopeLogs.Builder scope = ScopeLogs.newBuilder();
        for (int i = 0; i < n; i++) {
            scope.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(NOW_NANOS + i)
                    .setBody(AnyValue.newBuilder().setStringValue("record " + i + " " + "x".repeat(80))));
        }
        if (badTrace) {
            scope.addLogRecords(LogRecord.newBuilder().setTimeUnixNano(NOW_NANOS)
                    .setTraceId(ByteString.copyFrom(new byte[] {1, 2, 3})));
        }
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(scope))
                .build();
    }
}
