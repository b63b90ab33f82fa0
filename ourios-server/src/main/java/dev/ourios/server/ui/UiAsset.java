package dev.ourios.server.ui;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Objects;
import java.util.zip.GZIPOutputStream;

/**
 * One file of the UI, loaded from the jar once: its bytes, their gzip form and an ETag of their SHA-256.
 *
 * @param path        the request path it answers
 * @param contentType its media type
 */
public record UiAsset(String path, String contentType, byte[] bytes, byte[] gzip, String etag) {
    public UiAsset {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(gzip, "gzip");
        Objects.requireNonNull(etag, "etag");
    }

    /** Loads {@code resource} (relative to this package) to be served at {@code path}. */
    static UiAsset load(String path, String resource, String contentType) {
        try (InputStream in = UiAsset.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("BUG: UI resource " + resource + " is missing from the jar");
            }
            byte[] bytes = in.readAllBytes();
            return new UiAsset(path, contentType, bytes, gzip(bytes), etag(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException("UI resource " + resource + ": " + e.getMessage(), e);
        }
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 3 + 64);
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(bytes);
        }
        return out.toByteArray();
    }

    private static String etag(byte[] bytes) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(bytes);
            return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(h).substring(0, 22) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
