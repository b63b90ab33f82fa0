package dev.ourios.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP endpoint that accepts every connection, reads and discards what the client sends, and never answers: the
 * server that hangs, which deadlines must turn into a prompt failure. Binds the loopback address on a free port.
 */
public final class HungEndpoint implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    private HungEndpoint(ServerSocket server) {
        this.server = server;
        this.acceptor = new Thread(this::acceptForever, "hung-endpoint-" + server.getLocalPort());
        this.acceptor.setDaemon(true);
        this.acceptor.start();
    }

    public static HungEndpoint start() throws IOException {
        return new HungEndpoint(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    }

    /** {@code http://127.0.0.1:<port>}. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** Connections accepted so far. */
    public int connections() {
        return accepted.size();
    }

    private void acceptForever() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                accepted.add(s);
                Thread drain = new Thread(() -> discard(s), "hung-endpoint-reader");
                drain.setDaemon(true);
                drain.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** Reads so the client's request never blocks on a full socket buffer; the answer it waits for never comes. */
    private static void discard(Socket s) {
        byte[] buf = new byte[8192];
        try (InputStream in = s.getInputStream()) {
            while (in.read(buf) >= 0) {
                // discard
            }
        } catch (IOException e) {
            // the client gave up or the endpoint closed: either way nothing to do
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : accepted) {
            s.close();
        }
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
