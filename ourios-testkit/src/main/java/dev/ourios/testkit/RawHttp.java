package dev.ourios.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** A plain socket speaking (or failing to speak) HTTP/1.1: for requests no well-behaved client would send. */
public final class RawHttp implements AutoCloseable {
    private final Socket socket;

    public RawHttp(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.connect(address, 5000);
        socket.setSoTimeout(30_000);
    }

    public RawHttp send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return this;
    }

    /** The status code of a raw response, or -1 when there is none. */
    public static int status(String response) {
        return response.startsWith("HTTP/1.1 ") && response.length() >= 12
                ? Integer.parseInt(response.substring(9, 12)) : -1;
    }

    /** The body of a raw response (after the blank line). */
    public static String body(String response) {
        int i = response.indexOf("\r\n\r\n");
        return i < 0 ? "" : response.substring(i + 4);
    }

    /** Everything the server sends until it closes the connection (or the read timeout passes). */
    public String readAll() throws IOException {
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
    public boolean closedByServer(int waitMillis) throws IOException {
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
