package dev.ourios.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SortKeyTest {
    /** U+FFFD is one UTF-16 unit (FFFD) but UTF-8 EF BF BD; U+1F600 is D83D DE00 in UTF-16, F0 9F 98 80 in UTF-8. */
    private static final String BMP_HIGH = "\uFFFD";
    private static final String SUPPLEMENTARY = "😀";

    @Test
    void nullServiceSortsFirst() {
        assertTrue(SortKey.SERVICE_ORDER.compare(null, "") < 0);
        assertTrue(SortKey.SERVICE_ORDER.compare("a", null) > 0);
        assertEquals(0, SortKey.SERVICE_ORDER.compare(null, null));
    }

    @Test
    void servicesCompareByUtf8BytesNotUtf16Units() {
        assertTrue(SUPPLEMENTARY.compareTo(BMP_HIGH) < 0, "UTF-16 order puts the surrogate pair first");
        assertTrue(SortKey.SERVICE_ORDER.compare(BMP_HIGH, SUPPLEMENTARY) < 0, "UTF-8 order puts U+FFFD first");
        List<String> names = new ArrayList<>(Arrays.asList(SUPPLEMENTARY, "cart", null, BMP_HIGH, "Cart", "ad"));
        names.sort(SortKey.SERVICE_ORDER);
        assertEquals(Arrays.asList(null, "Cart", "ad", "cart", BMP_HIGH, SUPPLEMENTARY), names);
    }

    @Test
    void recordsSortByServiceThenEffectiveTime() {
        LogRecord late = LogRecord.builder("t").serviceName("cart").timeUnixNano(300).build();
        LogRecord observedOnly = LogRecord.builder("t").serviceName("cart").observedTimeUnixNano(200L).build();
        LogRecord early = LogRecord.builder("t").serviceName("cart").timeUnixNano(100).build();
        LogRecord noService = LogRecord.builder("t").timeUnixNano(999).build();
        LogRecord ad = LogRecord.builder("t").serviceName("ad").timeUnixNano(1).build();
        List<LogRecord> rows = new ArrayList<>(List.of(late, observedOnly, ad, early, noService));
        rows.sort(SortKey.RECORD_ORDER);
        assertEquals(List.of(noService, ad, early, observedOnly, late), rows);
    }

    @Test
    void comparingServicesWithoutEncodingAgreesWithTheirUtf8Bytes() {
        long seed = System.nanoTime();
        System.out.println("SortKeyTest seed " + seed);
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        char[] alphabet = {'a', 'b', 'Z', '\u00e9', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\ufffd', '\uffff'};
        for (int i = 0; i < 20_000; i++) {
            String a = randomName(rnd, alphabet);
            String b = randomName(rnd, alphabet);
            assertEquals(Integer.signum(SortKey.SERVICE_ORDER.compare(a, b)),
                    Integer.signum(SortKey.compareServices(a, b)), "seed " + seed + ": " + a + " vs " + b);
        }
    }

    /** A name of units from {@code alphabet} and whole surrogate pairs, or null. */
    private static String randomName(java.util.SplittableRandom rnd, char[] alphabet) {
        if (rnd.nextInt(20) == 0) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(5);
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(4) == 0) {
                sb.appendCodePoint(0x10000 + rnd.nextInt(0x100000));
            } else {
                sb.append(alphabet[rnd.nextInt(alphabet.length)]);
            }
        }
        return sb.toString();
    }
}
