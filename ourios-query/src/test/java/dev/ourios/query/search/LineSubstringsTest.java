package dev.ourios.query.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.core.LineText;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.testkit.TestSeed;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A word, phrase or prefix decides a line that lacks one of its tokens as a substring on the line's bytes
 * ({@link LineSubstrings}), without tokenizing it: the answer is the tokenized line's, whatever the line holds
 * (cases, non-ASCII letters that lower-case to ASCII, malformed UTF-8, a templated row's parts).
 */
class LineSubstringsTest {
    /** Pieces of lines: ASCII of either case, separators, letters outside ASCII (some lower-casing to ASCII). */
    private static final String[] PIECES = {"a", "B", "k", "K", "i", "I", "x", "Z", "0", "7", "_", " ", ".", "-", ":",
        "=", "\u0130", "\u212A", "\u0131", "ß", "Σ", "é", "\u0301", "日", "\uFFFD", "ab", "Ki", "kit", "ID", "id_7"};
    private static final String[] WORDS = {"a", "k", "i", "ki", "kit", "ab", "id", "id_7", "b0", "x", "z7", "abz",
        "_", "ik", "0"};

    @Test
    void only_two_code_points_outside_ascii_lower_case_to_ascii() {
        List<Integer> found = new ArrayList<>();
        for (int cp = 0x80; cp <= Character.MAX_CODE_POINT; cp++) {
            if (Character.getType(cp) == Character.SURROGATE) {
                continue;
            }
            String lower = new String(Character.toChars(cp)).toLowerCase(Locale.ROOT);
            if (lower.chars().anyMatch(c -> c < 0x80)) {
                found.add(cp);
            }
        }
        assertEquals(List.of(0x130, 0x212A), found, "LineSubstrings.ASCII_LOWERING must list them all");
    }

    @Test
    void words_answer_as_the_tokenized_line() throws Exception {
        long seed = TestSeed.announce(LineSubstringsTest.class);
        Random random = new Random(seed);
        int decidedOnBytes = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] line = line(random);
            LogRecord row = random.nextInt(3) == 0 ? templated(line, random)
                    : LogRecord.builder("t").bodyKind(0).body(line).build();
            List<String> tokens = Tokenizer.tokens(new String(LineText.of(row), StandardCharsets.UTF_8));
            List<String> want = new ArrayList<>();
            for (int n = 1 + random.nextInt(random.nextInt(4) == 0 ? 3 : 1); n > 0; n--) {
                want.add(WORDS[random.nextInt(WORDS.length)]);
            }
            boolean prefix = random.nextInt(3) == 0;
            String query = (want.size() > 1 ? "\"" + String.join(" ", want) + "\"" : want.get(0))
                    + (prefix && want.size() == 1 ? "*" : "");
            boolean expected = holds(tokens, want, prefix && want.size() == 1);
            String where = "seed " + seed + ", line " + java.util.HexFormat.of().formatHex(LineText.of(row))
                    + ", query " + query;
            assertEquals(expected, SearchQuery.parse(query).test(row), where);
            if (LineSubstrings.of(want).rulesOut(LineText.of(row))) {
                decidedOnBytes++;
                assertEquals(false, expected, where);
            }
        }
        assertTrue(decidedOnBytes > 2_000, "the bytes decided " + decidedOnBytes + " lines");
    }

    private static byte[] line(Random random) {
        if (random.nextInt(8) == 0) {
            byte[] b = new byte[random.nextInt(24)];
            random.nextBytes(b); // malformed UTF-8 too
            for (int i = 0; i < b.length; i++) {
                if (random.nextBoolean()) {
                    b[i] = (byte) PIECES[random.nextInt(9)].charAt(0); // ASCII among the noise
                }
            }
            return b;
        }
        StringBuilder s = new StringBuilder();
        for (int n = random.nextInt(12); n > 0; n--) {
            s.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The line cut into separators and parameters at random points (a token may straddle them). */
    private static LogRecord templated(byte[] line, Random random) {
        List<byte[]> separators = new ArrayList<>();
        List<Param> params = new ArrayList<>();
        int at = 0;
        boolean separator = true;
        while (true) {
            int cut = at + (line.length - at == 0 ? 0 : random.nextInt(line.length - at + 1));
            byte[] part = java.util.Arrays.copyOfRange(line, at, cut);
            at = cut;
            if (separator) {
                separators.add(part);
                if (at == line.length && random.nextBoolean()) {
                    break;
                }
            } else {
                params.add(new Param(0, random.nextInt(6) == 0 && part.length == 0 ? null : part));
            }
            separator = !separator;
        }
        return LogRecord.builder("t").bodyKind(1).body(null).separators(separators).params(params).build();
    }

    private static boolean holds(List<String> tokens, List<String> want, boolean prefixLast) {
        for (int i = 0; i + want.size() <= tokens.size(); i++) {
            boolean all = true;
            for (int j = 0; j < want.size() && all; j++) {
                String t = tokens.get(i + j);
                all = j == want.size() - 1 && prefixLast ? t.startsWith(want.get(j)) : t.equals(want.get(j));
            }
            if (all) {
                return true;
            }
        }
        return false;
    }
}
