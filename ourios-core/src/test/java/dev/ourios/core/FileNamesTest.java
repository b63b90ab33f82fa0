package dev.ourios.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The manifest-name parser against the definition of a canonical name; failures carry the seed to replay them. */
class FileNamesTest {
    private static final int CASES = 20_000;
    private static final Pattern CANONICAL = Pattern.compile("manifest\\.([0-9]{20})\\.json");
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** The definition: {@code manifest.<20 digits>.json} whose number is a long; -1 for any other name. */
    private static long reference(String name) {
        java.util.regex.Matcher m = CANONICAL.matcher(name);
        if (!m.matches()) {
            return -1;
        }
        BigInteger n = new BigInteger(m.group(1));
        return n.compareTo(LONG_MAX) > 0 ? -1 : n.longValueExact();
    }

    @Test
    void edgesOfTheName() {
        assertEquals(0, FileNames.manifestGeneration("manifest.00000000000000000000.json"));
        assertEquals(7, FileNames.manifestGeneration(FileNames.manifestName(7)));
        assertEquals(Long.MAX_VALUE, FileNames.manifestGeneration(FileNames.manifestName(Long.MAX_VALUE)));
        assertEquals(-1, FileNames.manifestGeneration("manifest.09223372036854775808.json"), "one past a long");
        assertEquals(-1, FileNames.manifestGeneration("manifest.99999999999999999999.json"));
        assertEquals(-1, FileNames.manifestGeneration("manifest.json"));
        assertEquals(-1, FileNames.manifestGeneration("manifest.0000000000000000000a.json"));
        assertEquals(-1, FileNames.manifestGeneration("manifest.-0000000000000000001.json"));
        assertEquals(-1, FileNames.manifestGeneration("manifest.+0000000000000000001.json"));
        assertEquals(-1, FileNames.manifestGeneration("Manifest.00000000000000000001.json"));
        assertEquals(-1, FileNames.manifestGeneration("manifest.00000000000000000001.jsoN"));
    }

    @Test
    void randomNamesParseAsTheDefinitionSays() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        String alphabet = "0123456789+-. ajmnsfeiotJ\u0660\u0966"; // digits, signs, the name's letters, other digits
        for (int i = 0; i < CASES; i++) {
            StringBuilder digits = new StringBuilder();
            for (int d = 0; d < 20; d++) {
                digits.append(r.nextInt(8) == 0 ? alphabet.charAt(r.nextInt(alphabet.length()))
                        : (char) ('0' + (r.nextInt(3) == 0 ? 9 : r.nextInt(10))));
            }
            String name = switch (r.nextInt(6)) {
                case 0 -> "manifest." + digits.substring(0, r.nextInt(21)) + ".json"; // too short, mostly
                case 1 -> "manifest." + digits + "0.json"; // too long
                case 2 -> (r.nextBoolean() ? "manifest," : "manifesT.") + digits + ".json";
                default -> "manifest." + digits + ".json";
            };
            assertEquals(reference(name), FileNames.manifestGeneration(name), "seed=" + seed + " case=" + i
                    + " name=" + name);
        }
    }
}
