package dev.ourios.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates for TLS tests, made with the running JDK's own {@code keytool} (nothing beyond a JDK is needed): a
 * CA, a server certificate it signs for {@code localhost} and {@code 127.0.0.1}, a client certificate it signs,
 * and a self-signed client certificate no CA vouches for. The server's files are PEM (certificate, PKCS#8 key) as
 * an operator would have them; the clients' are PKCS#12 stores for {@link SSLContext}s.
 */
public final class TestTls {
    private static final String PASSWORD = "changeit";
    private final Path dir;

    private TestTls(Path dir) {
        this.dir = dir;
    }

    /** Generates everything into {@code dir} (about two seconds: six keytool runs). */
    public static TestTls generate(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        TestTls t = new TestTls(dir);
        t.keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=ourios test CA",
                "-ext", "bc:c", "-validity", "2", "-keystore", "ca.p12");
        t.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem");
        t.signed("server", "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1");
        t.signed("client", "CN=ourios test client", null);
        t.keytool("-genkeypair", "-alias", "stranger", "-keyalg", "RSA", "-keysize", "2048", "-dname",
                "CN=stranger", "-validity", "2", "-keystore", "stranger.p12");
        t.pemKey("server");
        return t;
    }

    private void signed(String name, String dname, String san) throws IOException, InterruptedException {
        keytool("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-dname", dname, "-validity",
                "2", "-keystore", name + ".p12");
        keytool("-certreq", "-alias", name, "-keystore", name + ".p12", "-file", name + ".csr");
        List<String> gencert = new ArrayList<>(List.of("-gencert", "-rfc", "-alias", "ca", "-keystore", "ca.p12",
                "-infile", name + ".csr", "-outfile", name + ".pem", "-validity", "2"));
        if (san != null) {
            gencert.addAll(List.of("-ext", san));
        }
        keytool(gencert.toArray(new String[0]));
        // The chain (leaf then CA) replaces the self-signed entry, so the PKCS#12 store presents the signed cert.
        Files.writeString(dir.resolve(name + "-chain.pem"), Files.readString(dir.resolve(name + ".pem"))
                + Files.readString(dir.resolve("ca.pem")));
        keytool("-importcert", "-noprompt", "-alias", name, "-keystore", name + ".p12", "-file", name + "-chain.pem");
    }

    private void pemKey(String name) throws IOException {
        try (InputStream in = Files.newInputStream(dir.resolve(name + ".p12"))) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, PASSWORD.toCharArray());
            Key key = ks.getKey(name, PASSWORD.toCharArray());
            String b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(key.getEncoded()); // PKCS#8 DER
            Files.writeString(dir.resolve(name + ".key"), "-----BEGIN PRIVATE KEY-----\n" + b64
                    + "\n-----END PRIVATE KEY-----\n");
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    private void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storepass", PASSWORD, "-storetype", "PKCS12"));
        if (List.of(args).contains("-genkeypair")) {
            cmd.addAll(List.of("-keypass", PASSWORD));
        }
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("keytool timed out: " + cmd);
        }
        if (p.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: "
                    + new String(out, StandardCharsets.UTF_8));
        }
    }

    /** The server certificate chain, PEM. */
    public Path serverCert() {
        return dir.resolve("server-chain.pem");
    }

    /** The server's private key, PEM PKCS#8. */
    public Path serverKey() {
        return dir.resolve("server.key");
    }

    /** The CA certificate, PEM: the trust anchor for the server and the client CA for mutual TLS. */
    public Path caCert() {
        return dir.resolve("ca.pem");
    }

    /** A client context trusting the CA, presenting no certificate. */
    public SSLContext anonymousClient() throws IOException {
        return context(null);
    }

    /** A client context trusting the CA, presenting the CA-signed client certificate. */
    public SSLContext trustedClient() throws IOException {
        return context("client.p12");
    }

    /** A client context trusting the CA, presenting a self-signed certificate. */
    public SSLContext strangerClient() throws IOException {
        return context("stranger.p12");
    }

    private SSLContext context(String keyStore) throws IOException {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(keyStore == null ? null : keyManagers(keyStore), trustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    /** Trust managers trusting the CA (for clients that take managers, not a context: gRPC's). */
    public javax.net.ssl.TrustManager[] trustManagers() throws IOException {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(caCert())) {
                trust.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
                        .generateCertificate(in));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            return tmf.getTrustManagers();
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    /** Key managers presenting the CA-signed client certificate. */
    public javax.net.ssl.KeyManager[] trustedClientKeys() throws IOException {
        return keyManagers("client.p12");
    }

    /** Key managers presenting a self-signed certificate. */
    public javax.net.ssl.KeyManager[] strangerKeys() throws IOException {
        return keyManagers("stranger.p12");
    }

    private javax.net.ssl.KeyManager[] keyManagers(String keyStore) throws IOException {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(dir.resolve(keyStore))) {
                ks.load(in, PASSWORD.toCharArray());
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD.toCharArray());
            return kmf.getKeyManagers();
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }
}
