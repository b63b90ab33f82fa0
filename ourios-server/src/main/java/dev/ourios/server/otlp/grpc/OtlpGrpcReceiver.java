package dev.ourios.server.otlp.grpc;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.rpc.RetryInfo;
import dev.ourios.http.PemStores;
import dev.ourios.http.RequestIds;
import dev.ourios.http.ServerOptions;
import dev.ourios.http.TlsFiles;
import dev.ourios.ingest.Ingester;
import dev.ourios.otlp.OtlpCodec;
import dev.ourios.otlp.UndecodableException;
import dev.ourios.security.Authorizer;
import dev.ourios.security.Caller;
import dev.ourios.security.Decision;
import dev.ourios.security.EndpointScopes;
import dev.ourios.security.Scope;
import dev.ourios.security.TenantHeader;
import dev.ourios.security.ThrottledLog;
import dev.ourios.server.StartupException;
import dev.ourios.server.otlp.LogsExport;
import dev.ourios.server.otlp.Refusal;
import dev.ourios.server.otlp.RpcStatus;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.TlsServerCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.logs.v1.LogsServiceGrpc;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OTLP/gRPC logs receiver: {@code LogsService/Export} answered with an {@code ExportLogsServiceResponse} once the
 * accepted records are durable in the write-ahead log, exactly as OTLP/HTTP answers {@code POST /v1/logs}
 * ({@link LogsExport}). The same authorizer decides each call from its {@code authorization} and
 * {@code x-ourios-tenant} metadata (the scope of {@code POST /v1/logs}, the tenant header's encoding and default),
 * before its message is read.
 *
 * <p>Limits: a message above {@code ingest.max_body_bytes}, compressed or after gzip, is RESOURCE_EXHAUSTED
 * (grpc-java's own check, before the message reaches the handler); metadata above the listener's header limit is
 * refused by the transport. Calls run on {@code ingest.threads} threads (beyond {@link #WAITING_PER_THREAD} calls
 * waiting per thread, new ones are UNAVAILABLE with a RetryInfo); a connection carries at most
 * {@link #MAX_CALLS_PER_CONNECTION} calls at once, is closed after the listener's idle timeout without calls, and
 * may ping no more often than every {@link #MIN_CLIENT_PING}. The port holds at most the listener's
 * {@code maxConnections} connections ({@link CappedServerChannel}: more wait in the accept backlog), and a connection
 * that has not finished its HTTP/2 (and TLS) handshake within the listener's header timeout is closed. Refusals follow the OTLP specification: the retryable
 * ones (request buffer full, WAL behind or failed, shutting down) are UNAVAILABLE or RESOURCE_EXHAUSTED with a
 * {@code google.rpc.RetryInfo} saying how long to wait; the others carry no RetryInfo ({@link RpcStatus#codeFor}).
 */
public final class OtlpGrpcReceiver {
    /** Thread-name prefix and log label. */
    static final String NAME = "ourios-otlp-grpc";
    static final int MAX_CALLS_PER_CONNECTION = 64;
    /** Calls waiting for a thread, per thread, beyond which new calls are refused as at capacity (retryable). */
    static final int WAITING_PER_THREAD = 4;
    static final java.time.Duration MIN_CLIENT_PING = java.time.Duration.ofSeconds(10);
    /** The server pings a connection silent for this long, and closes it if the ping is not answered in time. */
    static final java.time.Duration KEEPALIVE = java.time.Duration.ofMinutes(1);
    static final java.time.Duration KEEPALIVE_TIMEOUT = java.time.Duration.ofSeconds(20);
    static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization",
            Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<String> TENANT = Metadata.Key.of(TenantHeader.NAME.toLowerCase(Locale.ROOT),
            Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<String> REQUEST_ID = Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER);
    private static final Logger LOG = LoggerFactory.getLogger(OtlpGrpcReceiver.class);
    private static final Context.Key<String> TENANT_OF_CALL = Context.key("ourios-tenant");
    private static final Context.Key<Caller> CALLER_OF_CALL = Context.key("ourios-caller");
    private static final Context.Key<CallLog> CALL_LOG = Context.key("ourios-call-log");
    /**
     * The transport logs a message it refuses itself (over the size limit, not inflating) as a multi-line warning
     * per call; the receiver logs those refusals itself, rate-limited ({@link CallLog}). Held so the setting stays.
     */
    private static final java.util.logging.Logger TRANSPORT_LOG = java.util.logging.Logger.getLogger(
            "io.grpc.netty.shaded.io.grpc.netty.NettyServerStream");
    /**
     * The request as bytes, parsed by the one OTLP decoder once the buffer is charged; or what kept them from being
     * read (a message above the limit once inflated, a body that does not inflate), for the handler to refuse.
     */
    private record Received(byte[] bytes, String unreadable, int status) {
    }

    private final MethodDescriptor.Marshaller<Received> received = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(Received value) {
            return new ByteArrayInputStream(value.bytes());
        }

        @Override
        public Received parse(InputStream stream) {
            try {
                return new Received(stream.readAllBytes(), null, 0);
            } catch (io.grpc.StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED) {
                    // grpc-java's limit on the inflated size: refused as the sent size is.
                    return new Received(null, "the message, decompressed, is larger than "
                            + ingester.settings().maxBodyBytes() + " bytes (ingest.max_body_bytes)", 413);
                }
                return new Received(null, "the message does not decompress: " + e.getStatus().getDescription(),
                        400);
            } catch (IOException | RuntimeException e) {
                return new Received(null, "the message is compressed but does not decompress: "
                        + e.getMessage(), 400);
            }
        }
    };

    private final LogsExport logs;
    private final Ingester ingester;
    private final OtlpGrpcSettings settings;
    private final ServerOptions listener;
    private final Authorizer authorizer;
    private final Scope scope = EndpointScopes.of("/v1/logs").orElseThrow();
    private final OtlpCodec codec = new OtlpCodec();
    private final ThrottledLog refusals = new ThrottledLog(LOG, 10);
    private Server server;
    private java.util.concurrent.ThreadPoolExecutor executor;
    /** Calls admitted and not yet ended (completed, failed or cancelled): see the capacity check in {@link Gate}. */
    private final AtomicInteger inFlight = new AtomicInteger();
    private EventLoopGroup acceptor;
    private EventLoopGroup transport;

    /**
     * @param listener the OTLP/HTTP listener's options: its TLS files, idle timeout and header limit apply here too
     */
    public OtlpGrpcReceiver(Ingester ingester, OtlpGrpcSettings settings, ServerOptions listener,
            Authorizer authorizer) {
        this.ingester = ingester;
        this.logs = new LogsExport(ingester);
        this.settings = settings;
        this.listener = listener;
        this.authorizer = authorizer;
    }

    /**
     * Binds and starts; returns the bound address (the real port when 0 was configured).
     *
     * @throws StartupException the address or the TLS files cannot be used
     */
    public InetSocketAddress start() {
        MethodDescriptor<Received, ExportLogsServiceResponse> export = MethodDescriptor
                .<Received, ExportLogsServiceResponse>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(LogsServiceGrpc.getExportMethod().getFullMethodName())
                .setRequestMarshaller(received)
                .setResponseMarshaller(ProtoUtils.marshaller(ExportLogsServiceResponse.getDefaultInstance()))
                .build();
        ServerServiceDefinition service = ServerServiceDefinition.builder(LogsServiceGrpc.SERVICE_NAME)
                .addMethod(export, ServerCalls.asyncUnaryCall(this::export))
                .build();
        InetSocketAddress bind = resolve(settings.listen());
        AtomicInteger n = new AtomicInteger();
        int threads = ingester.settings().threads();
        executor = new java.util.concurrent.ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, NAME + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        TRANSPORT_LOG.setLevel(java.util.logging.Level.SEVERE);
        // Our own event loops, because the listening channel is ours: it holds http.max_connections at most.
        acceptor = new NioEventLoopGroup(1, new DefaultThreadFactory(NAME + "-accept", true));
        transport = new NioEventLoopGroup(Math.max(1, Runtime.getRuntime().availableProcessors()),
                new DefaultThreadFactory(NAME + "-io", true));
        int maxConnections = listener.maxConnections();
        NettyServerBuilder b = NettyServerBuilder.forAddress(bind, credentials())
                .channelFactory(() -> new CappedServerChannel(maxConnections))
                .bossEventLoopGroup(acceptor)
                .workerEventLoopGroup(transport)
                .handshakeTimeout(listener.headerTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .addService(ServerInterceptors.intercept(service, new Gate()))
                .addStreamTracerFactory(new io.grpc.ServerStreamTracer.Factory() {
                    @Override
                    public io.grpc.ServerStreamTracer newServerStreamTracer(String method, Metadata headers) {
                        return new CallLog();
                    }
                })
                .executor(executor)
                .maxInboundMessageSize(ingester.settings().maxBodyBytes())
                .maxInboundMetadataSize(listener.maxHeaderBytes())
                .maxConcurrentCallsPerConnection(MAX_CALLS_PER_CONNECTION)
                .maxConnectionIdle(listener.idleTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveTime(KEEPALIVE.toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveTimeout(KEEPALIVE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .permitKeepAliveTime(MIN_CLIENT_PING.toMillis(), TimeUnit.MILLISECONDS)
                .permitKeepAliveWithoutCalls(true);
        try {
            server = b.build().start();
        } catch (IOException e) {
            executor.shutdownNow();
            acceptor.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            transport.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw new StartupException(settings.listenSetting() + ": cannot listen on " + settings.listen()
                    .getHostString() + ":" + settings.listen().getPort() + ": " + e.getMessage(), e);
        }
        SocketAddress bound = server.getListenSockets().get(0);
        return (InetSocketAddress) bound;
    }

    /**
     * Stops accepting calls and connections, and waits (at most {@code max}) for the calls already accepted to be
     * answered; calls still running then are cancelled, and their clients retry (at-least-once, as over HTTP).
     */
    public void stop(java.time.Duration max) throws InterruptedException {
        if (server == null) {
            return;
        }
        server.shutdown();
        if (!server.awaitTermination(max.toMillis(), TimeUnit.MILLISECONDS)) {
            server.shutdownNow();
            server.awaitTermination(5, TimeUnit.SECONDS);
        }
        executor.shutdown();
        executor.awaitTermination(5, TimeUnit.SECONDS);
        acceptor.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        transport.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    private void export(Received call, StreamObserver<ExportLogsServiceResponse> answer) {
        String tenant = TENANT_OF_CALL.get();
        Caller caller = CALLER_OF_CALL.get();
        long charged = 0;
        // The call's answer, sent once its charge is returned: a client holding its answer finds the tenant's share
        // of the request buffer as the call left it.
        ExportLogsServiceResponse response = null;
        StatusException failure = null;
        try {
            if (Context.current().isCancelled()) {
                return; // the client gave up (its deadline passed) while the call waited for a thread
            }
            if (call.unreadable() != null) {
                throw new Refusal(call.status(), call.unreadable());
            }
            byte[] message = call.bytes();
            ingester.metrics().received(message.length);
            // The bytes and the decoded request (about twice their size) come out of the tenant's part of the
            // shared request buffer: a tenant at its share is refused while the others' calls go on.
            long need = 3L * message.length;
            long share = ingester.budget().perOwnerLimit();
            if (need > share) {
                // Never fits, however long the client waits: not retryable.
                throw new Refusal(413, "the message needs " + need + " bytes of the request buffer, more than a "
                        + "tenant's whole share of it (" + share + " bytes: ingest.max_tenant_buffer_share of "
                        + "ingest.max_buffer_bytes)");
            }
            if (!ingester.budget().tryAcquire(tenant, need)) {
                throw LogsExport.bufferFull(ingester.budget(), tenant, need);
            }
            charged = need;
            ExportLogsServiceRequest request;
            try {
                request = codec.parseProtobuf(message);
            } catch (UndecodableException e) {
                throw new Refusal(400, e.getMessage());
            }
            response = logs.export(tenant, request);
        } catch (Refusal r) {
            failure = refuse(caller, tenant, r);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = refuse(caller, tenant, new Refusal(503, "the receiver is shutting down", 1));
        } catch (RuntimeException e) {
            CALL_LOG.get().logged.set(true);
            LOG.error("OTLP/gRPC call {} failed", caller.requestId(), e);
            failure = Status.INTERNAL.withDescription("internal error (request id " + caller.requestId() + ")")
                    .asException();
        } finally {
            ingester.budget().release(tenant, charged);
        }
        if (failure != null) {
            answer.onError(failure);
        } else if (response != null) {
            answer.onNext(response);
            answer.onCompleted();
        }
    }

    /** Logs the refusal (rate-limited) and turns it into the status the client gets. */
    private StatusException refuse(Caller caller, String tenant, Refusal r) {
        CallLog log = CALL_LOG.get();
        if (log != null) {
            log.logged.set(true);
        }
        String message = bounded(r.getMessage());
        refusals.warn("grpc " + r.status(), "request " + caller.requestId() + " from " + caller.address() + " "
                + caller.path() + " refused (" + Status.fromCodeValue(RpcStatus.codeFor(r.status())).getCode()
                + ", tenant " + (tenant == null ? "not decided" : "'" + TenantHeader.encode(tenant) + "'") + "): "
                + message);
        return status(r.status(), message, r.retryAfterSeconds());
    }

    /** A status with the refusal's gRPC code; a retryable one carries RetryInfo with the delay. */
    static StatusException status(int httpStatus, String message, int retryAfterSeconds) {
        com.google.rpc.Status.Builder s = com.google.rpc.Status.newBuilder()
                .setCode(RpcStatus.codeFor(httpStatus)).setMessage(message == null ? "" : message);
        if (retryAfterSeconds > 0) {
            s.addDetails(Any.pack(RetryInfo.newBuilder()
                    .setRetryDelay(Duration.newBuilder().setSeconds(retryAfterSeconds)).build()));
        }
        return StatusProto.toStatusException(s.build());
    }

    private static String bounded(String message) {
        int max = 300;
        return message == null || message.length() <= max ? message : message.substring(0, max - 1) + "…";
    }

    private ServerCredentials credentials() {
        if (listener.tls().isEmpty()) {
            return InsecureServerCredentials.create();
        }
        TlsFiles files = listener.tls().get();
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(PemStores.keyStore(files.cert(), files.key()), PemStores.password());
            TlsServerCredentials.Builder tls = TlsServerCredentials.newBuilder().keyManager(keys.getKeyManagers());
            if (files.clientCa().isPresent()) {
                TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(PemStores.trustStore(files.clientCa().get()));
                tls.trustManager(trust.getTrustManagers()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
            }
            return tls.build();
        } catch (PemStores.PemException e) {
            throw new StartupException("tls: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new StartupException("tls: cannot use the key and certificate: " + e.getMessage(), e);
        }
    }

    private InetSocketAddress resolve(InetSocketAddress a) {
        InetSocketAddress r = a.isUnresolved() ? new InetSocketAddress(a.getHostString(), a.getPort()) : a;
        if (r.isUnresolved()) {
            throw new StartupException(settings.listenSetting() + ": cannot resolve host '" + a.getHostString() + "'");
        }
        return r;
    }

    /**
     * One call's refusal log: a call refused by the receiver is logged where it is refused; one the transport ends
     * (a message over the size limit, one that does not inflate, a deadline) is logged here when its stream closes.
     */
    private final class CallLog extends io.grpc.ServerStreamTracer {
        final java.util.concurrent.atomic.AtomicBoolean logged = new java.util.concurrent.atomic.AtomicBoolean();
        volatile Caller caller;
        volatile String tenant;

        @Override
        public Context filterContext(Context context) {
            return context.withValue(CALL_LOG, this);
        }

        @Override
        public void streamClosed(Status status) {
            Caller c = caller;
            if (status.isOk() || status.getCode() == Status.Code.CANCELLED || c == null || logged.get()) {
                return;
            }
            String t = tenant;
            refusals.warn("grpc " + status.getCode(), "request " + c.requestId() + " from " + c.address() + " "
                    + c.path() + " refused (" + status.getCode() + ", tenant "
                    + (t == null ? "not decided" : "'" + TenantHeader.encode(t) + "'") + "): "
                    + bounded(status.getDescription()));
        }
    }

    /** One admitted call's place in {@link #inFlight}, given back once whichever way the call ends. */
    private final class InFlight {
        private final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();

        void end() {
            if (ended.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
            }
        }
    }

    /**
     * Before a call's message is read: its request id (sent back as {@code x-request-id}), the authorizer's
     * decision from its metadata, and the admission of its tenant id and by the WAL. A refused call is closed here.
     */
    private final class Gate implements ServerInterceptor {
        @Override
        public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
                ServerCallHandler<Q, A> next) {
            String id = RequestIds.next();
            SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
            String address = remote instanceof InetSocketAddress i && i.getAddress() != null
                    ? i.getAddress().getHostAddress() : String.valueOf(remote);
            Caller caller = new Caller(id, address, "/" + call.getMethodDescriptor().getFullMethodName());
            CallLog log = CALL_LOG.get();
            java.util.concurrent.atomic.AtomicBoolean logged = log.logged;
            log.caller = caller;
            ServerCall<Q, A> withId = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
                @Override
                public void sendHeaders(Metadata h) {
                    h.put(REQUEST_ID, id);
                    super.sendHeaders(h);
                }

                @Override
                public void close(Status status, Metadata trailers) {
                    trailers.put(REQUEST_ID, id);
                    super.close(status, trailers);
                }
            };
            Decision d = authorizer.authorize(values(headers, AUTHORIZATION), values(headers, TENANT), scope,
                    caller);
            if (d instanceof Decision.Denied denied) {
                // The authorizer logged it, with the caller.
                logged.set(true);
                StatusException e = status(denied.status(), denied.message(), 0);
                withId.close(e.getStatus(), e.getTrailers());
                return new ServerCall.Listener<>() { };
            }
            String tenant = ((Decision.Allowed) d).tenant();
            log.tenant = tenant;
            // Admitted calls not yet ended: one per thread being decoded, the rest waiting for one. Counted here,
            // not from the executor's queue, which a burst of calls starting at once fills with their (cheap) starts:
            // then every call of the burst, the first too, would see a full queue.
            int threads = executor.getCorePoolSize();
            int admitted = inFlight.incrementAndGet();
            InFlight ends = new InFlight();
            try {
                if (admitted > threads * (1 + WAITING_PER_THREAD)) {
                    throw new Refusal(503, "the receiver is at capacity (every thread busy, " + (admitted - 1 - threads)
                            + " calls waiting)", LogsExport.BUFFER_FULL_RETRY_SECONDS);
                }
                logs.admit(tenant);
            } catch (Refusal r) {
                ends.end();
                logged.set(true);
                StatusException e = refuse(caller, tenant, r);
                withId.close(e.getStatus(), e.getTrailers());
                return new ServerCall.Listener<>() { };
            }
            Context ctx = Context.current().withValue(TENANT_OF_CALL, tenant).withValue(CALLER_OF_CALL, caller);
            ServerCall.Listener<Q> listener;
            try {
                listener = Contexts.interceptCall(ctx, withId, headers, next);
            } catch (RuntimeException | Error e) {
                ends.end();
                throw e;
            }
            return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
                @Override
                public void onComplete() {
                    ends.end();
                    super.onComplete();
                }

                @Override
                public void onCancel() {
                    ends.end();
                    super.onCancel();
                }
            };
        }

        private static List<String> values(Metadata headers, Metadata.Key<String> key) {
            Iterable<String> all = headers.getAll(key);
            List<String> out = new ArrayList<>();
            if (all != null) {
                all.forEach(out::add);
            }
            return out;
        }
    }
}
