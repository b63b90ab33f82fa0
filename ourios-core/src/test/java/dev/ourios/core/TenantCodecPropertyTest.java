package dev.ourios.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Property tests of the canonical tenant codec; every failure message carries the seed to replay it. */
class TenantCodecPropertyTest {
    private static final int CASES = 5_000;
    private static final String UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~";

    @Test
    void randomUnicodeStringsRoundTrip() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            String s = randomUnicode(r);
            String enc = TenantCodec.encode(s);
            String ctx = "seed=" + seed + " case=" + i + " tenant=" + s;
            assertTrue(enc.matches("([A-Za-z0-9._~-]|%[0-9A-F]{2})+"), ctx + " encoded=" + enc);
            assertEquals(Optional.of(s), TenantCodec.decode(enc), ctx);
            assertEquals(s, TenantCodec.decodeLenient(enc), ctx + " lenient");
            assertEquals(s, TenantCodec.decodeLenient(lowerCaseEscapes(enc)), ctx + " lenient, lower-case escapes");
        }
    }

    private static String lowerCaseEscapes(String enc) {
        StringBuilder sb = new StringBuilder(enc.length());
        for (int i = 0; i < enc.length(); i++) {
            char c = enc.charAt(i);
            sb.append(c);
            if (c == '%') {
                sb.append(enc.substring(i + 1, i + 3).toLowerCase(Locale.ROOT));
                i += 2;
            }
        }
        return sb.toString();
    }

    @Test
    void everyAcceptableTenantsPathComponentFitsAFileNameAndLongerIdsAreRefused() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            StringBuilder sb = new StringBuilder();
            int targetBytes = 1 + r.nextInt(2 * TenantCodec.MAX_TENANT_BYTES);
            while (sb.toString().getBytes(StandardCharsets.UTF_8).length < targetBytes) {
                sb.append(randomUnicode(r));
            }
            String s = sb.toString();
            int bytes = s.getBytes(StandardCharsets.UTF_8).length;
            String ctx = "seed=" + seed + " case=" + i + " bytes=" + bytes;
            if (bytes <= TenantCodec.MAX_TENANT_BYTES) {
                TenantCodec.requireAcceptable(s);
                String component = "tenant_id=" + TenantCodec.encode(s);
                assertTrue(component.getBytes(StandardCharsets.US_ASCII).length <= 255, ctx);
            } else {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> TenantCodec.requireAcceptable(s), ctx);
                assertEquals("tenant id is " + bytes + " bytes of UTF-8; the limit is 81 bytes", e.getMessage(), ctx);
            }
        }
    }

    @Test
    void randomByteStringsDecodeExactlyWhenValidUtf8() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            byte[] bytes = new byte[1 + r.nextInt(12)];
            r.nextBytes(bytes);
            if (r.nextBoolean()) { // bias towards ASCII so the valid-UTF-8 branch is exercised too
                for (int j = 0; j < bytes.length; j++) {
                    bytes[j] &= 0x7F;
                }
            }
            String canonical = percentEncode(bytes);
            Optional<String> strict = strictUtf8(bytes);
            String ctx = "seed=" + seed + " case=" + i + " encoded=" + canonical;
            assertEquals(strict, TenantCodec.decode(canonical), ctx);
            strict.ifPresent(s -> assertEquals(canonical, TenantCodec.encode(s), ctx));
        }
    }

    @Test
    void nonCanonicalFormsAreRejected() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            String s = randomUnicode(r) + "/é"; // guarantees escapes with hex letters (%2F, %C3%A9)
            String enc = TenantCodec.encode(s);
            String ctx = "seed=" + seed + " case=" + i + " encoded=" + enc;
            int pct = enc.indexOf("%2F");
            assertTrue(TenantCodec.decode(enc.substring(0, pct) + "%2f" + enc.substring(pct + 3)).isEmpty(),
                    ctx + " lower-case hex");
            char u = UNRESERVED.charAt(r.nextInt(UNRESERVED.length()));
            String escapedUnreserved = String.format("%%%02X", (int) u);
            int at = r.nextInt(enc.length() + 1);
            // Insert only at an escape boundary, so the rest stays canonical.
            at = boundary(enc, at);
            assertTrue(TenantCodec.decode(enc.substring(0, at) + escapedUnreserved + enc.substring(at)).isEmpty(),
                    ctx + " escaped unreserved " + escapedUnreserved);
            assertTrue(TenantCodec.decode(enc + "%").isEmpty(), ctx + " truncated %");
            assertTrue(TenantCodec.decode(enc + "%4").isEmpty(), ctx + " truncated %4");
            assertTrue(TenantCodec.decode(enc + "%G1").isEmpty(), ctx + " bad hex digit");
            String reserved = "/= :?#@!+&é\u0000";
            char raw = reserved.charAt(r.nextInt(reserved.length()));
            assertTrue(TenantCodec.decode(enc.substring(0, at) + raw + enc.substring(at)).isEmpty(),
                    ctx + " raw reserved '" + raw + "'");
            // A lone continuation byte or a truncated sequence: canonical escapes, but not UTF-8.
            String invalid = r.nextBoolean() ? "%80" : "%E2%82";
            assertTrue(TenantCodec.decode(enc + invalid).isEmpty(), ctx + " invalid UTF-8 " + invalid);
        }
    }

    @Test
    void emptyAndUnpairedSurrogatesAreRejected() {
        assertTrue(TenantCodec.decode("").isEmpty());
        assertTrue(TenantCodec.decode(null).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> TenantCodec.encode(""));
        assertThrows(IllegalArgumentException.class, () -> TenantCodec.encode("a\uD800b"));
        assertEquals("a%2Fb%20%25", TenantCodec.encode("a/b %"));
        assertEquals("%F0%9F%98%80", TenantCodec.encode("😀"));
    }

    private static int boundary(String enc, int at) {
        // Move left out of a %XX escape.
        for (int k = Math.max(0, at - 2); k < at; k++) {
            if (enc.charAt(k) == '%') {
                return k;
            }
        }
        return at;
    }

    private static String randomUnicode(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = 1 + r.nextInt(10);
        while (sb.length() < n) {
            int cp = switch (r.nextInt(4)) {
                case 0 -> UNRESERVED.charAt(r.nextInt(UNRESERVED.length()));
                case 1 -> r.nextInt(0x80);
                case 2 -> r.nextInt(0x10000);
                default -> 0x10000 + r.nextInt(0x100000);
            };
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                continue; // lone surrogates are not Unicode scalar values
            }
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    private static String percentEncode(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            int u = b & 0xFF;
            if (u < 0x80 && UNRESERVED.indexOf(u) >= 0) {
                sb.append((char) u);
            } else {
                sb.append(String.format("%%%02X", u));
            }
        }
        return sb.toString();
    }

    private static Optional<String> strictUtf8(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
