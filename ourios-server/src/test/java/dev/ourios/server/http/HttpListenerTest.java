package dev.ourios.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.http.AuthorizingGate;
import dev.ourios.http.ErrorBody;
import dev.ourios.http.FailureLog;
import dev.ourios.http.Route;
import dev.ourios.http.ServerOptions;
import dev.ourios.http.TlsFiles;
import dev.ourios.server.StartupException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one listener set-up of both surfaces: it serves, stops, and refuses to start with a message naming the setting. */
class HttpListenerTest {
    private static final List<Route> ROUTES = List.of(
            Route.open("GET", "/healthz", ex -> ex.sendJson(200, Map.of("status", "ok"))));

    private static ServerOptions options(InetSocketAddress listen) {
        return ServerOptions.defaults("test-listener", listen, 2, 8);
    }

    private static HttpListener start(ServerOptions options) {
        return HttpListener.start("test.listen", options, ROUTES, AuthorizingGate.open(), ErrorBody.JSON,
                FailureLog.SLF4J);
    }

    @Test
    void servesItsRoutesUntilStopped() throws Exception {
        HttpListener listener = start(options(new InetSocketAddress("127.0.0.1", 0)));
        URI uri = URI.create("http://127.0.0.1:" + listener.address().getPort() + "/healthz");
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest get = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build();
        try {
            assertEquals("http", listener.scheme());
            HttpResponse<String> r = client.send(get, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertEquals("{\"status\":\"ok\"}", r.body());
        } finally {
            listener.stop(Duration.ofSeconds(5));
        }
        assertThrows(ConnectException.class, () -> client.send(get, HttpResponse.BodyHandlers.ofString()));
    }

    @Test
    void aHostThatDoesNotResolveIsNamedWithItsSetting() {
        StartupException e = assertThrows(StartupException.class,
                () -> start(options(InetSocketAddress.createUnresolved("no-such-host.invalid", 0))));
        assertEquals("test.listen: cannot resolve host 'no-such-host.invalid'", e.getMessage());
    }

    @Test
    void anAddressInUseIsNamedWithItsSetting() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            StartupException e = assertThrows(StartupException.class,
                    () -> start(options(new InetSocketAddress("127.0.0.1", port))));
            assertTrue(e.getMessage().startsWith("test.listen: cannot listen on 127.0.0.1:" + port + ": "),
                    e.getMessage());
        }
    }

    @Test
    void aTlsFileThatIsNotPemIsRefusedAtStart(@TempDir Path dir) throws IOException {
        Path cert = Files.writeString(dir.resolve("cert.pem"), "not a certificate\n");
        Path key = Files.writeString(dir.resolve("key.pem"), "not a key\n");
        ServerOptions tls = options(new InetSocketAddress("127.0.0.1", 0))
                .withTls(Optional.of(new TlsFiles(cert, key, Optional.empty())));
        StartupException e = assertThrows(StartupException.class, () -> start(tls));
        assertTrue(e.getMessage().startsWith("tls: "), e.getMessage());
    }
}
