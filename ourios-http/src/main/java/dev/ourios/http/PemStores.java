package dev.ourios.http;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Key and trust stores from PEM files, in memory (nothing written to disk). The key must be unencrypted PKCS#8
 * ({@code -----BEGIN PRIVATE KEY-----}) holding an RSA, EC or Ed25519 key that matches the first certificate; any
 * other input is refused with one line naming the file and what to do about it.
 */
public final class PemStores {
    /** The in-memory stores' password: they never leave the process. */
    static final char[] PASSWORD = "ourios".toCharArray();
    private static final String BEGIN_KEY = "-----BEGIN PRIVATE KEY-----";
    private static final String END_KEY = "-----END PRIVATE KEY-----";

    private PemStores() {
    }

    /** Thrown for a file that cannot be used; the message names it. */
    public static final class PemException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        PemException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The password of the in-memory key store's entry (for a {@code KeyManagerFactory}). */
    public static char[] password() {
        return PASSWORD.clone();
    }

    /** A key store with one entry: the key and its certificate chain. */
    public static KeyStore keyStore(Path certFile, Path keyFile) {
        List<X509Certificate> chain = certificates(certFile);
        PrivateKey key = privateKey(keyFile);
        checkPair(key, chain.get(0), certFile, keyFile);
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("server", key, PASSWORD, chain.toArray(new Certificate[0]));
            return ks;
        } catch (GeneralSecurityException | IOException e) {
            throw new PemException(keyFile + ": cannot build a key store: " + e.getMessage(), e);
        }
    }

    /** A trust store of every certificate in the file (the CAs client certificates must chain to). */
    public static KeyStore trustStore(Path caFile) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            int i = 0;
            for (X509Certificate c : certificates(caFile)) {
                ks.setCertificateEntry("ca-" + i++, c);
            }
            return ks;
        } catch (GeneralSecurityException | IOException e) {
            throw new PemException(caFile + ": cannot build a trust store: " + e.getMessage(), e);
        }
    }

    static List<X509Certificate> certificates(Path file) {
        byte[] bytes = read(file);
        List<X509Certificate> out = new ArrayList<>();
        try {
            for (Certificate c : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(bytes))) {
                out.add((X509Certificate) c);
            }
        } catch (CertificateException e) {
            throw new PemException(file + ": not a PEM certificate file: " + e.getMessage(), e);
        }
        if (out.isEmpty()) {
            throw new PemException(file + ": no PEM certificate (-----BEGIN CERTIFICATE-----) in it", null);
        }
        return out;
    }

    static PrivateKey privateKey(Path file) {
        String text = new String(read(file), StandardCharsets.US_ASCII);
        if (text.contains("-----BEGIN RSA PRIVATE KEY-----") || text.contains("-----BEGIN EC PRIVATE KEY-----")) {
            throw new PemException(file + ": a PKCS#1/SEC1 key; convert it to PKCS#8 with: openssl pkcs8 -topk8 "
                    + "-nocrypt -in " + file.getFileName() + " -out key.pk8.pem", null);
        }
        if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
            throw new PemException(file + ": an encrypted key; decrypt it with: openssl pkcs8 -topk8 -nocrypt -in "
                    + file.getFileName() + " -out key.pk8.pem", null);
        }
        int begin = text.indexOf(BEGIN_KEY);
        int end = text.indexOf(END_KEY);
        if (begin < 0 || end < begin) {
            throw new PemException(file + ": no PEM private key (-----BEGIN PRIVATE KEY-----) in it", null);
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(text.substring(begin + BEGIN_KEY.length(), end));
        } catch (IllegalArgumentException e) {
            throw new PemException(file + ": the private key is not valid base64", e);
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "RSASSA-PSS")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        throw new PemException(file + ": not an RSA, EC or Ed25519 PKCS#8 private key", null);
    }

    /** Signs with the key and verifies with the certificate, so a mismatched pair fails at start, not per client. */
    private static void checkPair(PrivateKey key, X509Certificate cert, Path certFile, Path keyFile) {
        String alg = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm();
        };
        try {
            byte[] probe = "ourios".getBytes(StandardCharsets.US_ASCII);
            Signature s = Signature.getInstance(alg);
            s.initSign(key);
            s.update(probe);
            byte[] sig = s.sign();
            Signature v = Signature.getInstance(alg);
            v.initVerify(cert.getPublicKey());
            v.update(probe);
            if (v.verify(sig)) {
                return;
            }
        } catch (GeneralSecurityException e) {
            // fall through: not a matching pair
        }
        throw new PemException(keyFile + ": the key does not match the certificate in " + certFile, null);
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new PemException(file + ": cannot read: " + e.getMessage(), e);
        }
    }
}
