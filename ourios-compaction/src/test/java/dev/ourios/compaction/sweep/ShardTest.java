package dev.ourios.compaction.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ourios.core.PartitionKey;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ShardTest {
    @Test
    void bad_shard_values_are_rejected_with_one_line_naming_the_flag() {
        for (String bad : new String[] {"3/3", "1/0", "-1/2", "a/b", "1", "1/2/3", "", " 0/2", "0/2 "}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Shard.parse(bad), bad);
            assertEquals("--shard must look like i/N with 0 <= i < N (got '" + bad + "')", e.getMessage());
        }
        assertEquals(new Shard(2, 3), Shard.parse("2/3"));
        assertEquals(Shard.ALL, Shard.parse("0/1"));
    }

    @Test
    void the_hash_is_fnv1a_64_of_tenant_newline_hour_label() {
        // FNV-1a 64 of "a" is af63dc4c8601ec8c (the published test vector); the partition hash extends it.
        PartitionKey p = PartitionKey.ofHour("acme", Instant.parse("2026-11-01T10:00:00Z"));
        long h = 0xcbf29ce484222325L;
        for (byte b : "acme\n2026-11-01T10".getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        assertEquals(h, Shard.hash(p));
        assertEquals(0xaf63dc4c8601ec8cL, fnv("a"));
    }

    @Test
    void every_partition_belongs_to_exactly_one_shard() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            String tenant = "t" + Long.toHexString(rnd.nextLong()) + (rnd.nextBoolean() ? "é/x" : "");
            PartitionKey p = PartitionKey.ofHour(tenant, Instant.ofEpochSecond(3600L * rnd.nextInt(500_000)));
            int n = 1 + rnd.nextInt(16);
            int owners = 0;
            for (int s = 0; s < n; s++) {
                owners += new Shard(s, n).owns(p) ? 1 : 0;
            }
            assertEquals(1, owners, "seed " + seed + ": " + p + " over " + n + " shards");
        }
    }

    private static long fnv(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }
}
