package dev.ourios.store.s3;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted HTTP server that answers the n-th request with the n-th canned response (the last one repeats).
 * s3proxy cannot be made to throttle or fail, so retry behaviour is tested against this instead.
 */
final class FakeS3Server implements AutoCloseable {
    record Reply(int status, String body) {
        static Reply error(int status, String code) {
            return new Reply(status, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code
                    + "</Code><Message>scripted " + code + "</Message><RequestId>r1</RequestId></Error>");
        }
    }

    private final HttpServer server;
    private final List<Reply> script;
    private final AtomicInteger requests = new AtomicInteger();

    FakeS3Server(List<Reply> script) throws IOException {
        this.script = List.copyOf(script);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", this::handle);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    int requests() {
        return requests.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            int n = requests.getAndIncrement();
            Reply reply = script.get(Math.min(n, script.size() - 1));
            byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/xml");
            exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
