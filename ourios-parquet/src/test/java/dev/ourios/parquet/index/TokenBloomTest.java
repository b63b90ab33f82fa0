package dev.ourios.parquet.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The folded filter is the filter those keys build at its size directly, whatever the order of insertion, and holds
 * every key inserted. The seed is printed; {@code -Dourios.index.seed=S} replays a run.
 */
class TokenBloomTest {
    @Test
    void a_folded_filter_equals_the_filter_built_at_its_size_and_holds_every_key() {
        long seed = seed("TokenBloomTest");
        Random rnd = new Random(seed);
        for (int round = 0; round < 200; round++) {
            int capBytes = TokenBloom.BLOCK_BYTES << rnd.nextInt(12);
            List<Long> keys = new ArrayList<>();
            for (int i = rnd.nextInt(3000); i > 0; i--) {
                keys.add(rnd.nextLong());
            }
            String where = "seed " + seed + ", round " + round + ", " + keys.size() + " keys, cap " + capBytes;
            TokenBloomBuilder builder = new TokenBloomBuilder(capBytes, 10);
            byte[] folded = build(builder, keys);
            Collections.shuffle(keys, rnd);
            assertArrayEquals(direct(folded.length / TokenBloom.BLOCK_BYTES, keys), folded, where);
            for (long k : keys) {
                assertTrue(TokenBloom.mayContain(folded, 0, folded.length, k), where);
            }
            int blocks = folded.length / TokenBloom.BLOCK_BYTES;
            int odd = blocks >> Integer.numberOfTrailingZeros(blocks);
            assertTrue(folded.length <= builder.maxFilterBytes() && builder.maxFilterBytes() <= capBytes
                    && (odd == 1 || odd == 3 || odd == 5 || odd == 15), where + ": " + blocks + " blocks");
            // sized for the keys: at least 10 bits a key (unless capped), and not a third more than the next size
            double bitsPerKey = folded.length * 8.0 / Math.max(1, keys.size());
            assertTrue(folded.length == builder.maxFilterBytes() || keys.size() < 50 || bitsPerKey >= 9,
                    where + ": " + bitsPerKey + " bits a key");
        }
    }

    @Test
    void repeated_and_colliding_keys_build_the_filter_of_their_distinct_keys_in_every_group() {
        long seed = seed("TokenBloomTest repeats");
        Random rnd = new Random(seed);
        int capBytes = TokenBloom.BLOCK_BYTES << 6;
        TokenBloomBuilder builder = new TokenBloomBuilder(capBytes, 10); // one builder: groups one after another
        for (int group = 0; group < 40; group++) {
            List<Long> pool = new ArrayList<>(List.of(0L)); // 0 is the recent keys' empty slot
            for (int i = 1 + rnd.nextInt(200); i > 0; i--) {
                long k = rnd.nextLong();
                pool.add(k);
                pool.add(k ^ (rnd.nextLong() << 12)); // the same slot of the recent keys, another key
            }
            List<Long> keys = new ArrayList<>();
            for (int i = rnd.nextInt(5000); i > 0; i--) {
                keys.add(pool.get(rnd.nextInt(rnd.nextBoolean() ? pool.size() : Math.min(4, pool.size()))));
            }
            byte[] folded = build(builder, keys);
            String where = "seed " + seed + ", group " + group + ", " + keys.size() + " keys";
            assertArrayEquals(direct(folded.length / TokenBloom.BLOCK_BYTES, new ArrayList<>(new java.util.HashSet<>(
                    keys))), folded, where);
        }
    }

    @Test
    void pair_keys_built_in_scratch_are_the_attribute_and_resource_keys() {
        long seed = seed("TokenBloomTest pairs");
        Random rnd = new Random(seed);
        String alphabet = "aZ_09 .-:/\0=\u007fÉΣ日\uD83D\uDE00\uD800";
        byte[][] scratch = new byte[1][];
        for (int round = 0; round < 5000; round++) {
            String key = random(rnd, alphabet, rnd.nextBoolean() ? 10 : alphabet.length(), rnd.nextInt(300));
            String value = random(rnd, alphabet, rnd.nextBoolean() ? 10 : alphabet.length(), rnd.nextInt(300));
            String where = "seed " + seed + ", round " + round;
            org.junit.jupiter.api.Assertions.assertEquals(TokenKeys.attribute(key, value),
                    TokenKeys.pair('A', key, value, scratch), where);
            org.junit.jupiter.api.Assertions.assertEquals(TokenKeys.resource(key, value),
                    TokenKeys.pair('R', key, value, scratch), where);
        }
    }

    private static String random(Random rnd, String alphabet, int letters, int length) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) {
            b.append(alphabet.charAt(rnd.nextInt(letters)));
        }
        return b.toString();
    }

    @Test
    void build_sizes_are_fifteen_times_a_power_of_two() {
        org.junit.jupiter.api.Assertions.assertEquals(1, TokenBloomBuilder.buildBlocks(1));
        org.junit.jupiter.api.Assertions.assertEquals(8, TokenBloomBuilder.buildBlocks(14));
        org.junit.jupiter.api.Assertions.assertEquals(15, TokenBloomBuilder.buildBlocks(29));
        org.junit.jupiter.api.Assertions.assertEquals(30, TokenBloomBuilder.buildBlocks(30));
        org.junit.jupiter.api.Assertions.assertEquals(122_880, TokenBloomBuilder.buildBlocks(131_072));
    }

    /** The filter of {@code keys} built directly at {@code blocks} blocks, by Parquet's split-block algorithm. */
    private static byte[] direct(int blocks, List<Long> keys) {
        int[] words = new int[blocks * 8];
        for (long k : keys) {
            int block = (int) (((k >>> 32) * blocks) >>> 32);
            for (int i = 0; i < 8; i++) {
                words[block * 8 + i] |= 1 << (((int) k * TokenBloom.SALT[i]) >>> 27);
            }
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(words.length * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.asIntBuffer().put(words);
        return b.array();
    }

    @Test
    void line_keys_from_bytes_are_the_keys_of_the_tokenizer() {
        long seed = seed("TokenBloomTest keys");
        Random rnd = new Random(seed);
        String alphabet = "aZ_09 .-:/\t=ÉéΣς日\u0301ß\uFFFD";
        for (int round = 0; round < 5000; round++) {
            byte[] line;
            if (rnd.nextInt(4) == 0) {
                line = new byte[rnd.nextInt(30)];
                rnd.nextBytes(line); // malformed UTF-8 too
            } else {
                StringBuilder b = new StringBuilder();
                boolean ascii = rnd.nextBoolean();
                for (int i = rnd.nextInt(40); i > 0; i--) {
                    char c = alphabet.charAt(rnd.nextInt(ascii ? 11 : alphabet.length()));
                    b.append(c);
                }
                line = b.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }
            List<Long> expected = new ArrayList<>();
            for (String t : TextTokens.tokens(new String(line, java.nio.charset.StandardCharsets.UTF_8))) {
                expected.add(TokenKeys.line(t));
            }
            List<Long> actual = new ArrayList<>();
            TokenKeys.lineTokens(line, actual::add);
            org.junit.jupiter.api.Assertions.assertEquals(expected, actual, "seed " + seed + ", round " + round);
        }
    }

    /** The run's seed for {@code what}, printed with how to replay it. */
    private static long seed(String what) {
        long seed = Long.getLong("ourios.index.seed", System.nanoTime());
        System.out.println(what + ": seed " + seed + " (replay with -Dourios.index.seed=" + seed + ")");
        return seed;
    }

    private static byte[] build(TokenBloomBuilder b, List<Long> keys) {
        for (long k : keys) {
            b.add(k);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        b.finishGroup(out);
        return out.toByteArray();
    }
}
