package dev.ourios.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.TenantCodec;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TenantHeaderTest {
    @Test
    void non_ascii_and_reserved_characters_are_percent_encoded_utf8() {
        assertEquals("t%C3%ABnant-%F0%9F%99%82", TenantHeader.encode("tënant-🙂"));
        assertEquals("tënant-🙂", TenantHeader.decode("t%C3%ABnant-%F0%9F%99%82"));
        assertEquals("b%2Fc", TenantHeader.encode("b/c"));
        assertEquals("100%25%20sure%2C%20ok", TenantHeader.encode("100% sure, ok"));
        assertEquals("acme", TenantHeader.encode("acme"));
    }

    @Test
    void plain_visible_ascii_and_lower_case_escapes_decode_as_written() {
        assertEquals("acme", TenantHeader.decode("acme"));
        assertEquals("b/c", TenantHeader.decode("b/c"));
        assertEquals("b/c", TenantHeader.decode("b%2fc"));
        assertEquals("a:b@c", TenantHeader.decode("a:b@c"));
        assertEquals(" x ", TenantHeader.decode("%20x%20"));
    }

    @Test
    void malformed_values_are_refused_naming_the_header() {
        for (String bad : new String[] {"", "%", "a%", "a%4", "%G1", "%4G", "a%%41", "t%C3", "%FF", "%C3%28",
                "tënant", "a b", "a,b", "a\tb", "x\u0000"}) {
            TenantHeaderException e = assertThrows(TenantHeaderException.class, () -> TenantHeader.decode(bad),
                    "'" + bad + "'");
            assertTrue(e.getMessage().startsWith("X-Ourios-Tenant: "), e.getMessage());
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
        assertTrue(assertThrows(TenantHeaderException.class, () -> TenantHeader.decode("a,b")).getMessage()
                .contains("%2C"));
    }

    @Test
    void encoding_refuses_what_is_not_a_tenant_id() {
        assertThrows(IllegalArgumentException.class, () -> TenantHeader.encode(""));
        assertThrows(IllegalArgumentException.class, () -> TenantHeader.encode("a\uD800b"));
    }

    /**
     * Random tenant ids (non-ASCII, emoji, reserved characters, '%', '/', ',', spaces, controls) encode to the store's
     * canonical tenant encoding and decode back to themselves, from the canonical form and from a lower-case one.
     */
    @Test
    void every_tenant_id_round_trips() {
        long seed = Long.getLong("ourios.seed", System.nanoTime());
        System.out.println("TenantHeaderTest seed " + seed + " (-Dourios.seed=" + seed + " to repeat)");
        SplittableRandom r = new SplittableRandom(seed);
        String alphabet = "aZ09-_.~%/ ,:;@?#&=+!*'()[]$\"\\\t\n\u0000\u007Fëßé中文ü🙂👍🏽";
        int[] cps = alphabet.codePoints().toArray();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = 1 + r.nextInt(24);
            for (int j = 0; j < len; j++) {
                int cp = r.nextInt(4) == 0 ? randomCodePoint(r) : cps[r.nextInt(cps.length)];
                sb.appendCodePoint(cp);
            }
            String tenant = sb.toString();
            String header = TenantHeader.encode(tenant);
            assertEquals(TenantCodec.encode(tenant), header, "seed " + seed + ": canonical encoding of " + tenant);
            assertTrue(header.chars().allMatch(c -> c > 0x20 && c < 0x7F && c != ','), "seed " + seed + ": " + header);
            assertEquals(tenant, TenantHeader.decode(header), "seed " + seed + ": " + header);
            assertEquals(tenant, TenantHeader.decode(lowerCaseEscapes(header)), "seed " + seed + ": " + header);
        }
    }

    private static int randomCodePoint(SplittableRandom r) {
        while (true) {
            int cp = r.nextInt(Character.MAX_CODE_POINT + 1);
            if (cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE) {
                return cp;
            }
        }
    }

    private static String lowerCaseEscapes(String header) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < header.length(); i++) {
            char c = header.charAt(i);
            if (c == '%') {
                sb.append('%').append(header.substring(i + 1, i + 3).toLowerCase(java.util.Locale.ROOT));
                i += 2;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
