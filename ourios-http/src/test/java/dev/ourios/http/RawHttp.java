package dev.ourios.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** A plain socket speaking (or failing to speak) HTTP/1.1: for requests no well-behaved client would send. */
final class RawHttp implements AutoCloseable {
    private final Socket socket;

    RawHttp(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.connect(address, 5000);
        socket.setSoTimeout(30_000);
    }

    RawHttp send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return this;
    }

    /** Everything the server sends until it closes the connection (or the read timeout passes). */
    String readAll() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                out.write(buf, 0, n);
            }
        } catch (SocketTimeoutException e) {
            // return what came
        } catch (IOException e) {
            // reset by the server after its answer
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** True once the server has closed the connection (a read returns end of stream or fails). */
    boolean closedByServer(int waitMillis) throws IOException {
        socket.setSoTimeout(waitMillis);
        try {
            InputStream in = socket.getInputStream();
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) >= 0; ) {
                // drain any error response the server sends before closing
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
